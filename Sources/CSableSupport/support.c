#define _GNU_SOURCE
#include "CSableSupport.h"
#include <pthread.h>
#include <setjmp.h>
#include <sys/prctl.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>

__attribute__((noinline))
void sable_with_spilled_registers(void (*visit)(void *low, void *context), void *context) {
    jmp_buf registers;
    __builtin_unwind_init();
    setjmp(registers);
    visit((void *)&registers, context);
    __asm__ volatile("" : : "r"(&registers) : "memory");
}

int sable_thread_stack_bounds(void **low, void **high) {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return -1;
    void *addr = NULL;
    size_t size = 0;
    int rc = pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0) return -1;
    *low = addr;
    *high = (char *)addr + size;
    return 0;
}

void sable_flush_instruction_cache(void *start, unsigned long length) {
    __builtin___clear_cache((char *)start, (char *)start + length);
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int sable_fix_mmap_threshold(size_t bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, (int)bytes);
#else
    (void)bytes;
    return 0;
#endif
}

int sable_seccomp_mode(void) {
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
}

void sable_sleep_nanoseconds(uint64_t nanoseconds) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int word = 0;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t elapsed = (uint64_t)(now.tv_sec - start.tv_sec) * 1000000000ull
            + (uint64_t)(now.tv_nsec - start.tv_nsec);
        if (elapsed >= nanoseconds) return;
        uint64_t left = nanoseconds - elapsed;
        struct timespec timeout = { (time_t)(left / 1000000000ull), (long)(left % 1000000000ull) };
        // Returns at the timeout (ETIMEDOUT) or early on a signal (EINTR): loop on the clock.
        syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &timeout, NULL, 0);
    }
}

int sable_release_free_memory(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
