#define _GNU_SOURCE
#include "CLockdown.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <dirent.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int report_fd = -1;
static volatile sable_sigsys_mode handler_mode = SABLE_SIGSYS_REPORT_AND_DIE;
static volatile long trapped_count = 0;
static volatile int last_nr = -1;
static volatile uint32_t last_arch = 0;

long sable_raw_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
#if defined(__x86_64__)
    register long r10 __asm__("r10") = a3;
    register long r8 __asm__("r8") = a4;
    register long r9 __asm__("r9") = a5;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
#else
    int saved = errno;
    long ret = syscall(nr, a0, a1, a2, a3, a4, a5);
    if (ret == -1) ret = -errno;
    errno = saved;
    return ret;
#endif
}

long sable_raw_syscall_i386(long nr, long a0, long a1, long a2) {
#if defined(__x86_64__)
    long ret;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a0), "c"(a1), "d"(a2) : "memory");
    return ret;
#else
    (void)nr; (void)a0; (void)a1; (void)a2;
    return -ENOSYS;
#endif
}

// Async-signal-safe: only raw system calls and volatile globals.
static void on_sigsys(int sig, siginfo_t *info, void *context) {
    (void)sig;
    if (handler_mode == SABLE_SIGSYS_RECORD) {
        trapped_count += 1;
        last_nr = info->si_syscall;
        last_arch = info->si_arch;
#if defined(__x86_64__)
        ((ucontext_t *)context)->uc_mcontext.gregs[REG_RAX] = -ENOSYS;
#elif defined(__aarch64__)
        ((ucontext_t *)context)->uc_mcontext.regs[0] = (unsigned long)-ENOSYS;
#endif
        return;
    }
    (void)context;
    int32_t report[2] = { info->si_syscall, (int32_t)info->si_arch };
    if (report_fd >= 0) sable_raw_syscall(SYS_write, report_fd, (long)report, sizeof report, 0, 0, 0);
    // SIGSYS is blocked while this handler runs, so a second trap makes the kernel
    // reset SIGSYS to SIG_DFL and kill the whole process with it.
    sable_raw_syscall(SABLE_DIE_SYSCALL, 0, 0, 0, 0, 0, 0);
    sable_raw_syscall(SYS_exit_group, 128 + SIGSYS, 0, 0, 0, 0, 0);
}

int sable_install_sigsys_handler(int fd, sable_sigsys_mode mode) {
    report_fd = fd;
    handler_mode = mode;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigsys;
    action.sa_flags = SA_SIGINFO;
    sigfillset(&action.sa_mask);
    if (sigaction(SIGSYS, &action, NULL) != 0) return -errno;
    // A forced SIGSYS must not be blocked by an inherited mask.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGSYS);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    return 0;
}

long sable_trapped_count(void) { return trapped_count; }
int sable_last_trapped_nr(void) { return last_nr; }
uint32_t sable_last_trapped_arch(void) { return last_arch; }

int sable_set_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : -errno; }
int sable_load_filter(const void *instructions, unsigned count) {
    if (count == 0 || count > BPF_MAXINSNS) return -EINVAL;
    struct sock_fprog program = { (unsigned short)count, (struct sock_filter *)instructions };
    return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0 ? 0 : -errno;
}
int sable_get_no_new_privs(void) { return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); }
int sable_drop_capabilities(void) {
    // Ambient set first (it may not exceed permitted and inheritable), then the bounding
    // set (needs CAP_SETPCAP, which the last capset takes away), then every set capget sees.
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return -errno;
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2];
    if (syscall(SYS_capget, &header, data) != 0) return -errno;
    // Without CAP_SETPCAP every drop fails with EPERM (an ordinary user's worker): skip the
    // 80 system calls. With it, drop each capability until the kernel knows no more.
    if (data[CAP_SETPCAP / 32].effective & (1u << (CAP_SETPCAP % 32))) {
        for (int cap = 0; cap < 64; cap++) {
            if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0) continue;
            if (errno == EINVAL) break; // past CAP_LAST_CAP
            if (errno != EPERM) return -errno;
        }
    }
    header.version = _LINUX_CAPABILITY_VERSION_3;
    header.pid = 0;
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &header, data) != 0) return -errno;
    return 0;
}

int sable_capabilities_cleared(void) {
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2];
    if (syscall(SYS_capget, &header, data) != 0) return -errno;
    for (int i = 0; i < 2; i++) {
        if (data[i].effective || data[i].permitted || data[i].inheritable) return 0;
    }
    return 1;
}

int sable_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0) == 0 ? 0 : -errno; }

static int signal_pipe[2] = { -1, -1 };

static void on_supervisor_signal(int sig) {
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    (void)!write(signal_pipe[1], &b, 1);
    errno = saved;
}

int sable_signal_pipe_install(const int *signals, int count) {
    if (signal_pipe[0] < 0) {
        if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -errno;
    }
    for (int i = 0; i < count; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_supervisor_signal;
        action.sa_flags = SA_RESTART;
        sigemptyset(&action.sa_mask);
        if (sigaction(signals[i], &action, NULL) != 0) return -errno;
    }
    return signal_pipe[0];
}

int sable_pipe_cloexec_nonblock(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0 ? 0 : -errno; }

static int close_above(int lowest) {
    if (syscall(SYS_close_range, (unsigned)lowest, ~0U, 0) == 0) return 0;
    // Kernels before 5.9: close what /proc/self/fd lists.
    DIR *dir = opendir("/proc/self/fd");
    if (dir == NULL) return -errno;
    int self = dirfd(dir);
    struct dirent *e;
    int fds[256];
    int n = 0;
    while ((e = readdir(dir)) != NULL && n < 256) {
        int fd = atoi(e->d_name);
        if (fd >= lowest && fd != self) fds[n++] = fd;
    }
    closedir(dir);
    for (int i = 0; i < n; i++) close(fds[i]);
    return n == 256 ? close_above(lowest) : 0;
}

int sable_forked_worker_setup(int socket_fd, int report_fd) {
    if (socket_fd <= 4 || report_fd <= 4) return -EINVAL;
    if (dup2(socket_fd, 3) != 3 || dup2(report_fd, 4) != 4) return -errno;
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd < 0) return -errno;
    if (null_fd != 0) {
        if (dup2(null_fd, 0) != 0) return -errno;
        close(null_fd);
    } else {
        fcntl(0, F_SETFD, 0);
    }
    int rc = close_above(5);
    if (rc != 0) return rc;
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        struct sigaction old;
        if (sigaction(sig, NULL, &old) != 0) continue; // signals reserved by libc
        int caught = old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN;
        int reset = caught || sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGPIPE
                    || sig == SIGQUIT || sig == SIGSYS;
        if (reset && old.sa_handler != SIG_DFL) signal(sig, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    return 0;
}

// The worker's CPU mask, saved before fork: the parent narrows the new worker's mask
// (below) and the worker puts this one back before it locks down.
static cpu_set_t cpus_before_fork;
static int cpus_saved = 0;

void sable_worker_cpus_save(void) {
    cpus_saved = sched_getaffinity(0, sizeof cpus_before_fork, &cpus_before_fork) == 0
        && CPU_COUNT(&cpus_before_fork) > 1;
}

int sable_worker_place(int child) {
    if (!cpus_saved) return 0;
    int here = sched_getcpu();
    if (here < 0 || here >= CPU_SETSIZE || !CPU_ISSET(here, &cpus_before_fork)) return 0;
    cpu_set_t others = cpus_before_fork;
    CPU_CLR(here, &others);
    return sched_setaffinity(child, sizeof others, &others) == 0 ? 1 : -errno;
}

int sable_worker_cpus_restore(void) {
    if (!cpus_saved) return 0;
    return sched_setaffinity(0, sizeof cpus_before_fork, &cpus_before_fork) == 0 ? 0 : -errno;
}

int sable_thread_count(void) {
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[1024];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    // Field 2 (comm) may hold spaces: fields are counted after its closing parenthesis.
    char *p = strrchr(buf, ')');
    if (p == NULL) return -1;
    int field = 2;
    while (*p && field < 20) {
        if (*p == ' ') field++;
        p++;
    }
    return field == 20 ? atoi(p) : -1;
}

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int sable_wait_child_exit(int pid, int timeout_ms) {
#ifdef SYS_pidfd_open
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd < 0) return -errno;
    long end = now_ms() + timeout_ms;
    int result = 0;
    for (;;) {
        long left = end - now_ms();
        struct pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };
        int n = poll(&p, 1, left > 0 ? (int)left : 0);
        if (n > 0) { result = 1; break; }
        if (n == 0 || (n < 0 && errno != EINTR)) break;
    }
    close(fd);
    return result;
#else
    (void)pid; (void)timeout_ms;
    return -ENOSYS;
#endif
}

void sable_probe_flush_instruction_cache(void *start, unsigned long length) {
    __builtin___clear_cache((char *)start, (char *)start + length);
}

static void (*crash_describe)(int) = NULL;

static void on_crash(int sig, siginfo_t *info, void *context) {
    (void)context;
    static volatile sig_atomic_t reporting = 0;
    if (reporting) return; // a fault while describing: die by it
    reporting = 1;
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGILL ? "SIGILL"
                     : sig == SIGFPE ? "SIGFPE" : sig == SIGTRAP ? "SIGTRAP" : "signal";
    const char *head = "jsrun worker: fatal ";
    (void)!write(2, head, strlen(head));
    (void)!write(2, name, strlen(name));
    if (crash_describe != NULL) crash_describe(sig);
    (void)!write(2, "\n", 1);
    // Sent (kill), not a fault: returning would not repeat it; die by it now (the
    // handler is back to the default action).
    if (info != NULL && info->si_code <= 0) syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), sig);
}

int sable_crash_reporter_install(void (*describe)(int signal)) {
    static char alternate[256 * 1024];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alternate;
    ss.ss_size = sizeof alternate;
    if (sigaltstack(&ss, NULL) != 0) return -errno;
    crash_describe = describe;
    const int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_crash;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        if (sigaction(signals[i], &action, NULL) != 0) return -errno;
    }
    return 0;
}

unsigned long long sable_malloc_in_use(void) {
#if defined(__GLIBC__)
    struct mallinfo2 m = mallinfo2();
    return (unsigned long long)m.uordblks + (unsigned long long)m.hblkhd;
#else
    return 0;
#endif
}

unsigned long long sable_malloc_mmapped(void) {
#if defined(__GLIBC__)
    return (unsigned long long)mallinfo2().hblkhd;
#else
    return 0;
#endif
}
