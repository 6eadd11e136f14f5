// policy-probe: installs the worker policy that `jsrun --lockdown-policy` printed, on its
// own (libseccomp, no Sable code), and tries the sandbox escapes the self-test tries.
// Each attempt runs in a fresh child: escapes must be killed by SIGSYS, allowed
// operations must succeed. A second opinion on the policy: the rules as printed, a
// different program, the same kernel.
//
//   jsrun --lockdown-policy > policy.txt
//   cc -O1 -o policy-probe policy-probe.c -lseccomp && ./policy-probe policy.txt
//
// Exit status: 0 if every attempt ended as it must, 1 otherwise, 2 on bad input.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_RULES 128
#define MAX_CONDS 6

struct rule {
    char name[64];
    uint32_t action;
    unsigned count;
    struct scmp_arg_cmp cmp[MAX_CONDS];
};

static struct rule rules[MAX_RULES];
static unsigned rule_count;
static uint64_t region_base, region_span;
static long printed_pid = -1;

static int parse_condition(char *text, struct scmp_arg_cmp *out) {
    unsigned arg;
    unsigned long long a, b;
    char op[4];
    if (sscanf(text, " arg%u & %llx == %llx", &arg, &a, &b) == 3 && strstr(text, "&")) {
        *out = (struct scmp_arg_cmp){ arg, SCMP_CMP_MASKED_EQ, a, b };
        return 0;
    }
    if (sscanf(text, " arg%u %3s %llx", &arg, op, &a) != 3) return -1;
    enum scmp_compare c;
    if (!strcmp(op, "==")) c = SCMP_CMP_EQ;
    else if (!strcmp(op, "!=")) c = SCMP_CMP_NE;
    else return -1;
    *out = (struct scmp_arg_cmp){ arg, c, a, 0 };
    return 0;
}

static int load_policy(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        unsigned long long base, span;
        long pid;
        if (sscanf(line, "# executable-region base %llx span %llx", &base, &span) == 2) {
            region_base = base; region_span = span; continue;
        }
        if (sscanf(line, "# pid %ld", &pid) == 1) { printed_pid = pid; continue; }
        if (line[0] == '#' || line[0] == 0) continue;
        char *hash = strstr(line, "  #");
        if (!hash) hash = strstr(line, " # ");
        if (hash) *hash = 0;
        char action[16], name[64];
        int used = 0;
        if (sscanf(line, "%15s %63s %n", action, name, &used) < 2) { fprintf(stderr, "bad line: %s\n", line); return -1; }
        if (!strcmp(name, "*")) continue; // the default: kill
        if (rule_count == MAX_RULES) { fprintf(stderr, "too many rules\n"); return -1; }
        struct rule *r = &rules[rule_count++];
        snprintf(r->name, sizeof r->name, "%s", name);
        if (!strcmp(action, "allow")) r->action = SCMP_ACT_ALLOW;
        else if (!strcmp(action, "EPERM")) r->action = SCMP_ACT_ERRNO(EPERM);
        else if (!strcmp(action, "kill")) r->action = SCMP_ACT_KILL_PROCESS;
        else { fprintf(stderr, "bad action: %s\n", action); return -1; }
        char *rest = line + used;
        if (!strncmp(rest, "if ", 3)) {
            rest += 3;
            // Conditions are joined by " && " (a mask test has a single '&').
            for (char *c = rest; c; ) {
                char *next = strstr(c, " && ");
                if (next) { *next = 0; next += 4; }
                if (r->count == MAX_CONDS || parse_condition(c, &r->cmp[r->count]) != 0) {
                    fprintf(stderr, "bad condition: %s\n", c); return -1;
                }
                r->count++;
                c = next;
            }
        }
    }
    fclose(f);
    if (rule_count == 0 || region_span == 0) { fprintf(stderr, "no rules or no executable region in %s\n", path); return -1; }
    return 0;
}

static void install(void) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(90);
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!ctx) _exit(91);
    for (unsigned i = 0; i < rule_count; i++) {
        struct rule *r = &rules[i];
        int nr = seccomp_syscall_resolve_name(r->name);
        if (nr == __NR_SCMP_ERROR) _exit(92);
        struct scmp_arg_cmp cmp[MAX_CONDS];
        memcpy(cmp, r->cmp, sizeof cmp);
        // The printed tgkill rule names the printing process: this child is another.
        for (unsigned k = 0; k < r->count; k++)
            if (!strcmp(r->name, "tgkill") && cmp[k].arg == 0 && cmp[k].datum_a == (uint64_t)printed_pid)
                cmp[k].datum_a = (uint64_t)getpid();
        if (seccomp_rule_add_array(ctx, r->action, nr, r->count, cmp) != 0) _exit(93);
    }
    if (seccomp_load(ctx) != 0) _exit(94);
}

static long sys6(long nr, long a, long b, long c, long d, long e, long f) { return syscall(nr, a, b, c, d, e, f); }

enum { ESCAPE, ALLOWED };

static int attempt(const char *what) {
    char *pool = (char *)(uintptr_t)region_base;
    long anon = MAP_PRIVATE | MAP_ANONYMOUS;
    if (!strcmp(what, "jit-pool")) {
        if (mprotect(pool, 4096, PROT_READ | PROT_WRITE) != 0) return 1;
        static const unsigned char code[] = { 0xB8, 42, 0, 0, 0, 0xC3 }; // mov eax, 42; ret
        memcpy(pool, code, sizeof code);
        if (mprotect(pool, 4096, PROT_READ | PROT_EXEC) != 0) return 1;
        int (*fn)(void) = (int (*)(void))(void *)pool;
        return fn() == 42 ? 0 : 1;
    }
    if (!strcmp(what, "mmap-rw")) return mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, anon, -1, 0) == MAP_FAILED;
    if (!strcmp(what, "mremap-grow")) {
        void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, anon, -1, 0);
        return mremap(p, 8192, 1 << 20, MREMAP_MAYMOVE) == MAP_FAILED;
    }
    if (!strcmp(what, "madvise-dontneed")) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, anon, -1, 0);
        return madvise(p, 4096, MADV_DONTNEED) != 0;
    }
    if (!strcmp(what, "futex-private")) {
        int word = 0;
        return sys6(SYS_futex, (long)&word, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0) < 0;
    }
    // Escapes: reaching the end means the kernel let the call through.
    if (!strcmp(what, "mprotect-x")) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, anon, -1, 0);
        if (p == MAP_FAILED || mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0) return 3;
    } else if (!strcmp(what, "mprotect-wx-pool")) {
        mprotect(pool, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
    } else if (!strcmp(what, "mprotect-x-past-pool")) {
        mprotect(pool + region_span - 4096, region_span + 8192, PROT_READ | PROT_EXEC);
    } else if (!strcmp(what, "mmap-x")) {
        mmap(NULL, 4096, PROT_READ | PROT_EXEC, anon, -1, 0);
    } else if (!strcmp(what, "dual-mapping")) {
        // One writable view, one executable view of the same page: never W+X in one
        // mapping, and still code the process wrote. Unconfined, this works (control run).
        unsigned char *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared == MAP_FAILED) return 3;
        void *alias = mremap(shared, 0, 4096, MREMAP_MAYMOVE);
        if (alias == MAP_FAILED || mprotect(alias, 4096, PROT_READ | PROT_EXEC) != 0) return 3;
        static const unsigned char code[] = { 0xB8, 42, 0, 0, 0, 0xC3 };
        memcpy(shared, code, sizeof code);
        int (*fn)(void) = (int (*)(void))alias;
        return fn() == 42 ? 0 : 3;
    } else if (!strcmp(what, "mremap-alias")) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, anon, -1, 0);
        mremap(p, 0, 4096, MREMAP_MAYMOVE);
    } else if (!strcmp(what, "mremap-fixed")) {
        char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, anon, -1, 0);
        mremap(p, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, p + 4096);
    } else if (!strcmp(what, "mremap-pool")) {
        mremap(pool, 4096, 8192, MREMAP_MAYMOVE);
    } else if (!strcmp(what, "futex-shared")) {
        int word = 0;
        sys6(SYS_futex, (long)&word, FUTEX_WAKE, 1, 0, 0, 0);
    } else if (!strcmp(what, "madvise-dontfork")) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, anon, -1, 0);
        madvise(p, 4096, MADV_DONTFORK);
    } else if (!strcmp(what, "read-stdin")) {
        char b;
        sys6(SYS_read, 0, (long)&b, 1, 0, 0, 0);
    } else if (!strcmp(what, "openat")) {
        sys6(SYS_openat, AT_FDCWD, (long)"/etc/passwd", 0, 0, 0, 0);
    } else if (!strcmp(what, "execve")) {
        sys6(SYS_execve, (long)"/bin/true", 0, 0, 0, 0, 0);
    } else if (!strcmp(what, "socket")) {
        sys6(SYS_socket, 2, 1, 0, 0, 0, 0);
    } else {
        return 2;
    }
    return 0;
}

// Escapes marked CONTROL are also run without the policy, where they must succeed: the
// attempt is a real escape, and only the policy stops it.
#define CONTROL 4
static const struct { const char *name; int kind; } cases[] = {
    { "jit-pool", ALLOWED }, { "mmap-rw", ALLOWED }, { "mremap-grow", ALLOWED },
    { "madvise-dontneed", ALLOWED }, { "futex-private", ALLOWED },
    { "mprotect-x", ESCAPE | CONTROL }, { "mprotect-wx-pool", ESCAPE }, { "mprotect-x-past-pool", ESCAPE },
    { "mmap-x", ESCAPE }, { "dual-mapping", ESCAPE | CONTROL }, { "mremap-alias", ESCAPE }, { "mremap-fixed", ESCAPE },
    { "mremap-pool", ESCAPE }, { "futex-shared", ESCAPE }, { "madvise-dontfork", ESCAPE },
    { "read-stdin", ESCAPE }, { "openat", ESCAPE }, { "execve", ESCAPE }, { "socket", ESCAPE },
};

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: policy-probe POLICY.txt\n"); return 2; }
    if (load_policy(argv[1]) != 0) return 2;
    printf("policy: %u rules, executable region 0x%llx + 2 x 0x%llx\n", rule_count,
           (unsigned long long)region_base, (unsigned long long)region_span);
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int confined = 1; confined >= 0; confined--) {
            int escape = (cases[i].kind & 3) == ESCAPE;
            if (!confined && !(cases[i].kind & CONTROL)) continue;
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                void *want = (void *)(uintptr_t)region_base;
                void *got = mmap(want, 2 * region_span, PROT_NONE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
                if (got != want) _exit(95);
                if (confined) install();
                _exit(attempt(cases[i].name));
            }
            int status = 0;
            waitpid(pid, &status, 0);
            char how[64];
            if (WIFSIGNALED(status)) snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(status));
            else snprintf(how, sizeof how, "exited %d", WEXITSTATUS(status));
            int ok = confined && escape ? WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS
                                        : WIFEXITED(status) && WEXITSTATUS(status) == 0;
            printf("%s %-22s %s %s\n", ok ? "ok  " : "FAIL", cases[i].name,
                   !confined ? "(control, no policy: must work)" : escape ? "(escape)" : "(allowed)", how);
            if (!ok) failures++;
        }
    }
    printf(failures ? "policy-probe: %d failed\n" : "policy-probe: all passed\n", failures);
    return failures ? 1 : 0;
}
