#define _GNU_SOURCE
#include "CSableSupport.h"
#include <pthread.h>
#include <setjmp.h>
#include <sys/prctl.h>

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
