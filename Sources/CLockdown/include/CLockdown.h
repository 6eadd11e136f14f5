#ifndef CLOCKDOWN_H
#define CLOCKDOWN_H

#include <stdint.h>

/// What the SIGSYS handler does with a system call the seccomp filter trapped
/// (`SECCOMP_RET_TRAP`; the kernel never executed the call).
typedef enum {
    /// Write `{ int32 nr, uint32 arch }` to the report descriptor, then die by SIGSYS
    /// (the handler repeats a trapped call while SIGSYS is blocked, so the kernel
    /// forces the default action: the same end as `SECCOMP_RET_KILL_PROCESS`).
    SABLE_SIGSYS_REPORT_AND_DIE = 0,
    /// Count the call, remember its number and make it return -ENOSYS (the sweep only).
    SABLE_SIGSYS_RECORD = 1,
} sable_sigsys_mode;

/// Installs the SIGSYS handler (before lockdown: needs rt_sigaction). Returns 0 or -errno.
int sable_install_sigsys_handler(int report_fd, sable_sigsys_mode mode);
/// Record mode: how many calls were trapped, and the last trapped number and arch.
long sable_trapped_count(void);
int sable_last_trapped_nr(void);
uint32_t sable_last_trapped_arch(void);

/// A raw system call with six arguments: the kernel's return value (-errno on failure);
/// errno is untouched. Swift cannot call the variadic syscall(2).
long sable_raw_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5);
/// The same through the i386 entry (`int $0x80`) on x86_64; -ENOSYS elsewhere.
long sable_raw_syscall_i386(long nr, long a0, long a1, long a2);

/// prctl(2) is variadic: the calls Lockdown needs.
int sable_set_no_new_privs(void);
/// Loads a classic BPF seccomp filter of `count` 8-byte instructions (SECCOMP_SET_MODE_FILTER,
/// no flags: what libseccomp's seccomp_load does). Needs no_new_privs. 0 or -errno.
int sable_load_filter(const void *instructions, unsigned count);
int sable_get_no_new_privs(void);
int sable_set_parent_death_signal(int signal);
/// Drops every capability before lockdown: the ambient set, the bounding set (where
/// CAP_SETPCAP allows; an unprivileged process has nothing to drop there), and the
/// effective, permitted and inheritable sets. Returns 0 or -errno.
int sable_drop_capabilities(void);
/// 1 if the effective, permitted and inheritable sets are empty, 0 if not, -errno.
int sable_capabilities_cleared(void);

/// The bytes malloc has handed out and not had back (glibc's mallinfo2: in-use heap chunks
/// plus mmap'd blocks); 0 where there is no glibc. No system call: a locked process may ask.
unsigned long long sable_malloc_in_use(void);
/// Of which mmap'd blocks.
unsigned long long sable_malloc_mmapped(void);

/// Supervisor side: installs handlers for `signals` that write the signal number (one
/// byte) to a non-blocking self-pipe; returns the pipe's read end, or -errno.
/// Idempotent: later calls return the same descriptor.
int sable_signal_pipe_install(const int *signals, int count);

/// Installs handlers for the crash signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP) on an
/// alternate stack (a crash by stack overflow still reports): the handler writes
/// "jsrun worker: fatal SIGNAME" and what `describe` adds to descriptor 2, then returns with
/// the default action restored (SA_RESETHAND), so the faulting instruction faults again and
/// the process dies by the same signal as before. Call before lockdown. 0 or -errno.
int sable_crash_reporter_install(void (*describe)(int signal));

/// Worker side of a fork without exec, right after fork(): moves `socket_fd` to
/// descriptor 3 and `report_fd` to 4 (both must be above 4), opens /dev/null as
/// stdin, closes every other descriptor above 2, resets every caught signal (and
/// SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGSYS) to its default action and
/// empties the signal mask: what exec and the spawn attributes do for a spawned worker.
/// Returns 0 or -errno.
int sable_forked_worker_setup(int socket_fd, int report_fd);

/// Where a forked worker starts. Linux puts a forked child on its parent's CPU, and
/// the supervisor goes on compiling the worker's seccomp policy there (~0.5 ms), so
/// the worker would wait for that CPU while another one idles. Before fork,
/// `sable_worker_cpus_save` saves this process's CPU mask (nothing to do with one
/// CPU); right after fork the parent calls `sable_worker_place(child)`, which narrows
/// the child's mask to the other CPUs of it (1 if it did, 0 if nothing to do,
/// -errno); the worker calls `sable_worker_cpus_restore` once it has heard from the
/// parent (so after the placement) and before lockdown: the mask is the user's again.
void sable_worker_cpus_save(void);
int sable_worker_place(int child);
int sable_worker_cpus_restore(void);

/// Waits until child `pid` has ended (is reapable), at most `timeout_ms` milliseconds:
/// 1 if it has, 0 if not yet, -errno if the kernel has no pidfd_open (before 5.3).
/// Does not reap it.
int sable_wait_child_exit(int pid, int timeout_ms);

/// The number of threads of this process (from /proc/self/stat; -1 if unknown).
int sable_thread_count(void);

/// pipe2(fds, O_CLOEXEC | O_NONBLOCK) (not visible to Swift without _GNU_SOURCE).
int sable_pipe_cloexec_nonblock(int fds[2]);

/// Makes freshly written code visible to instruction fetch (a no-op on x86_64; arm64
/// cleans the data cache and invalidates the instruction cache over the range).
void sable_probe_flush_instruction_cache(void *start, unsigned long length);

/// The number the handler repeats to die (not a system call on any Linux ABI).
#define SABLE_DIE_SYSCALL 1023

#endif
