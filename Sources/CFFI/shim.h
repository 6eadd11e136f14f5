#ifndef CFFI_SHIM_H
#define CFFI_SHIM_H
// libffi (apt: libffi-dev) and the dynamic loader, for the JSFFI target (Sable.dlopen).
// Only the dynamically linked jsrun-ffi-worker and embedders link them: the static-PIE
// jsrun never does (dlopen from a static glibc binary is not supported).
#include <ffi.h>
#include <dlfcn.h>
#include <string.h>
#include <stdint.h>

// The basic ffi_type descriptors (C globals; their addresses, without relying on how
// Swift passes an imported global inout).
static inline ffi_type *sable_ffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *sable_ffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *sable_ffi_type_sint8(void) { return &ffi_type_sint8; }
static inline ffi_type *sable_ffi_type_uint16(void) { return &ffi_type_uint16; }
static inline ffi_type *sable_ffi_type_sint16(void) { return &ffi_type_sint16; }
static inline ffi_type *sable_ffi_type_uint32(void) { return &ffi_type_uint32; }
static inline ffi_type *sable_ffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *sable_ffi_type_uint64(void) { return &ffi_type_uint64; }
static inline ffi_type *sable_ffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *sable_ffi_type_float(void) { return &ffi_type_float; }
static inline ffi_type *sable_ffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *sable_ffi_type_pointer(void) { return &ffi_type_pointer; }

typedef void (*sable_ffi_closure_fun)(ffi_cif *, void *, void **, void *);

// The size of an ffi_closure: its trampoline code followed by cif, fun and user_data.
static inline size_t sable_ffi_closure_size(void) { return sizeof(ffi_closure); }

// Fills `staging` (sable_ffi_closure_size() bytes) with a closure whose dynamic
// trampoline is position-independent (x86_64: `lea -0xb(%rip),%r10; jmp *ffi_closure_unix64`;
// arm64: `adr`/`ldr` relative to itself) and whose cif, fun and user_data follow it: the
// bytes are then copied unchanged into executable memory (the JIT's code pool), where
// the trampoline finds its closure data next to itself. `ftramp` is zeroed first so a
// libffi built with static trampolines still writes the dynamic one.
static inline int sable_ffi_prepare_closure(void *staging, ffi_cif *cif, sable_ffi_closure_fun fun, void *user_data) {
    memset(staging, 0, sizeof(ffi_closure));
    return ffi_prep_closure_loc((ffi_closure *)staging, cif, fun, user_data, staging) == FFI_OK ? 0 : -1;
}

static inline int sable_ffi_prep_cif(ffi_cif *cif, unsigned nargs, ffi_type *rtype, ffi_type **atypes) {
    return ffi_prep_cif(cif, FFI_DEFAULT_ABI, nargs, rtype, atypes) == FFI_OK ? 0 : -1;
}

static inline void sable_ffi_call(ffi_cif *cif, void *fn, void *rvalue, void **avalue) {
    ffi_call(cif, (void (*)(void))fn, rvalue, avalue);
}
// The direct call (FFIFunction): a signature's arguments laid out once, by the classes
// libffi's ffi_call computes on every call: slots[0..<SABLE_DIRECT_IREGS] are the integer
// argument registers, the next 8 the floating-point ones (x86_64 SysV and arm64 AAPCS64
// fill the two files independently), and the K after them the stack arguments in parameter
// order, one 8-byte slot each (both ABIs on Linux; an f32 in the low half). The function is
// called through a pointer of that shape: extra register arguments are ignored by the
// callee and the caller pops its own stack arguments. `fp_result`: the result is read from
// the first floating-point register (an f32 in its low half), else the first integer one.
#if defined(__aarch64__)
#define SABLE_DIRECT_IREGS 8
#define SABLE_IP uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t
#define SABLE_IA s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
#else
#define SABLE_DIRECT_IREGS 6
#define SABLE_IP uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t
#define SABLE_IA s[0], s[1], s[2], s[3], s[4], s[5]
#endif
#define SABLE_DIRECT_MAX_STACK 10
#define SABLE_FP double, double, double, double, double, double, double, double
#define SABLE_F(n) sable_slot_double(s + SABLE_DIRECT_IREGS + (n))
#define SABLE_FA SABLE_F(0), SABLE_F(1), SABLE_F(2), SABLE_F(3), SABLE_F(4), SABLE_F(5), SABLE_F(6), SABLE_F(7)
#define SABLE_K(n) s[SABLE_DIRECT_IREGS + 8 + (n)]
#define SABLE_DIRECT_CASE(K, STKP, ...) \
    case K: \
        if (fp_result) *(double *)ret = ((double (*)(SABLE_IP, SABLE_FP STKP))fn)(SABLE_IA, SABLE_FA __VA_ARGS__); \
        else *(uint64_t *)ret = ((uint64_t (*)(SABLE_IP, SABLE_FP STKP))fn)(SABLE_IA, SABLE_FA __VA_ARGS__); \
        return;
#define U1 , uint64_t
#define U2 U1 U1
#define U4 U2 U2
#define U8 U4 U4
static inline double sable_slot_double(const uint64_t *p) { double d; memcpy(&d, p, 8); return d; }
static inline int sable_direct_iregs(void) { return SABLE_DIRECT_IREGS; }
static inline int sable_direct_max_stack(void) { return SABLE_DIRECT_MAX_STACK; }
static inline void sable_direct_call(void *fn, const uint64_t *s, int stack, int fp_result, void *ret) {
    switch (stack) {
    SABLE_DIRECT_CASE(0, , )
    SABLE_DIRECT_CASE(1, U1, , SABLE_K(0))
    SABLE_DIRECT_CASE(2, U2, , SABLE_K(0), SABLE_K(1))
    SABLE_DIRECT_CASE(3, U2 U1, , SABLE_K(0), SABLE_K(1), SABLE_K(2))
    SABLE_DIRECT_CASE(4, U4, , SABLE_K(0), SABLE_K(1), SABLE_K(2), SABLE_K(3))
    SABLE_DIRECT_CASE(5, U4 U1, , SABLE_K(0), SABLE_K(1), SABLE_K(2), SABLE_K(3), SABLE_K(4))
    SABLE_DIRECT_CASE(6, U4 U2, , SABLE_K(0), SABLE_K(1), SABLE_K(2), SABLE_K(3), SABLE_K(4), SABLE_K(5))
    SABLE_DIRECT_CASE(7, U4 U2 U1, , SABLE_K(0), SABLE_K(1), SABLE_K(2), SABLE_K(3), SABLE_K(4), SABLE_K(5), SABLE_K(6))
    SABLE_DIRECT_CASE(8, U8, , SABLE_K(0), SABLE_K(1), SABLE_K(2), SABLE_K(3), SABLE_K(4), SABLE_K(5), SABLE_K(6), SABLE_K(7))
    SABLE_DIRECT_CASE(9, U8 U1, , SABLE_K(0), SABLE_K(1), SABLE_K(2), SABLE_K(3), SABLE_K(4), SABLE_K(5), SABLE_K(6), SABLE_K(7), SABLE_K(8))
    SABLE_DIRECT_CASE(10, U8 U2, , SABLE_K(0), SABLE_K(1), SABLE_K(2), SABLE_K(3), SABLE_K(4), SABLE_K(5), SABLE_K(6), SABLE_K(7), SABLE_K(8), SABLE_K(9))
    default: return;
    }
}
#undef U1
#undef U2
#undef U4
#undef U8
#endif
