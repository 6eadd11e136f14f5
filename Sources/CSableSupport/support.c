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

// Sequentially consistent atomics on 1-, 2-, 4- and 8-byte integers (Atomics on shared
// memory that other threads' agents access at the same time).
#define SABLE_RMW(T, q, op, v) \
    do { \
        T *q_ = (T *)(q); T x_ = (T)(v); \
        switch (op) { \
        case 0: return __atomic_fetch_add(q_, x_, __ATOMIC_SEQ_CST); \
        case 1: return __atomic_fetch_and(q_, x_, __ATOMIC_SEQ_CST); \
        case 2: return __atomic_exchange_n(q_, x_, __ATOMIC_SEQ_CST); \
        case 3: return __atomic_fetch_or(q_, x_, __ATOMIC_SEQ_CST); \
        case 4: return __atomic_fetch_sub(q_, x_, __ATOMIC_SEQ_CST); \
        default: return __atomic_fetch_xor(q_, x_, __ATOMIC_SEQ_CST); \
        } \
    } while (0)

uint64_t sable_atomic_rmw(void *p, int size, int op, uint64_t v) {
    switch (size) {
    case 1: SABLE_RMW(uint8_t, p, op, v);
    case 2: SABLE_RMW(uint16_t, p, op, v);
    case 4: SABLE_RMW(uint32_t, p, op, v);
    default: SABLE_RMW(uint64_t, p, op, v);
    }
}

#define SABLE_CAS(T, p, expected, replacement) \
    do { \
        T e_ = (T)(expected); \
        __atomic_compare_exchange_n((T *)(p), &e_, (T)(replacement), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        return e_; \
    } while (0)

uint64_t sable_atomic_compare_exchange(void *p, int size, uint64_t expected, uint64_t replacement) {
    switch (size) {
    case 1: SABLE_CAS(uint8_t, p, expected, replacement);
    case 2: SABLE_CAS(uint16_t, p, expected, replacement);
    case 4: SABLE_CAS(uint32_t, p, expected, replacement);
    default: SABLE_CAS(uint64_t, p, expected, replacement);
    }
}

uint64_t sable_atomic_load(void *p, int size) {
    switch (size) {
    case 1: return __atomic_load_n((uint8_t *)p, __ATOMIC_SEQ_CST);
    case 2: return __atomic_load_n((uint16_t *)p, __ATOMIC_SEQ_CST);
    case 4: return __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST);
    default: return __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST);
    }
}

void sable_atomic_store(void *p, int size, uint64_t v) {
    switch (size) {
    case 1: __atomic_store_n((uint8_t *)p, (uint8_t)v, __ATOMIC_SEQ_CST); break;
    case 2: __atomic_store_n((uint16_t *)p, (uint16_t)v, __ATOMIC_SEQ_CST); break;
    case 4: __atomic_store_n((uint32_t *)p, (uint32_t)v, __ATOMIC_SEQ_CST); break;
    default: __atomic_store_n((uint64_t *)p, v, __ATOMIC_SEQ_CST); break;
    }
}
