#ifndef CSABLESUPPORT_H
#define CSABLESUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// Spills the callee-saved registers onto the stack, then calls `visit` with the lowest
/// stack address that holds them (everything from there up to the stack's top is the
/// conservative root set). Used by the garbage collector.
void sable_with_spilled_registers(void (*visit)(void *low, void *context), void *context);

/// Reads one word of the native stack for the collector's conservative scan. Exempt from
/// AddressSanitizer: the scan reads every word of the stack on purpose, the redzones of
/// sanitized frames included (a fuzzing build would otherwise stop at the first scan).
static inline __attribute__((no_sanitize("address"))) uintptr_t sable_load_stack_word(uintptr_t address) {
    return *(const uintptr_t *)address;
}

/// The current thread's stack bounds: [*low, *high). Returns 0 on success.
int sable_thread_stack_bounds(void **low, void **high);

/// Makes code just written at [start, start + length) visible to instruction fetch:
/// nothing on x86_64; on arm64 cleans the data cache and invalidates the instruction
/// cache over the range (__builtin___clear_cache).
void sable_flush_instruction_cache(void *start, unsigned long length);

/// Fixes glibc's mmap threshold at `bytes` (turning off its dynamic raise), so that big
/// buffers are always mmap'd and their pages leave the process when freed. Returns
/// mallopt's result (1 on success); 0 where there is no glibc.
int sable_fix_mmap_threshold(size_t bytes);
/// Gives the free pages of malloc's heap back to the system (glibc: malloc_trim(0), which
/// also releases whole free pages inside the heap); returns 1 when memory was released.
int sable_release_free_memory(void);

/// prctl(PR_GET_SECCOMP): 0 none, 1 strict, 2 filter (the JIT runs only under 2); -1 error.
/// (prctl is variadic: Swift cannot call it.)
int sable_seccomp_mode(void);

/// Sleeps for `nanoseconds` (a relative timeout) by waiting on a private futex word that
/// nothing wakes: the one way to sleep that the locked worker's policy allows
/// (FUTEX_WAIT_PRIVATE; nanosleep and clock_nanosleep are not on its list).
void sable_sleep_nanoseconds(uint64_t nanoseconds);

/// Sequentially consistent atomics on the 1-, 2-, 4- or 8-byte integer at `p` (aligned):
/// read-modify-write `op` (0 add, 1 and, 2 exchange, 3 or, 4 sub, 5 xor) and
/// compare-exchange return the old value (zero-extended).
uint64_t sable_atomic_rmw(void *p, int size, int op, uint64_t v);
uint64_t sable_atomic_compare_exchange(void *p, int size, uint64_t expected, uint64_t replacement);
uint64_t sable_atomic_load(void *p, int size);
void sable_atomic_store(void *p, int size, uint64_t v);

#endif
