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
#endif
