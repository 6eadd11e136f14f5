#ifndef CPANGOCAIRO_SHIM_H
#define CPANGOCAIRO_SHIM_H
// Cairo and Pango (apt: libcairo2-dev libpango1.0-dev), for the rendering process (and the
// host, which writes screenshots of layers as PNG). Plus memfd_create, which Swift's Glibc
// module does not declare without _GNU_SOURCE.
#include <pango/pangocairo.h>
#include <cairo.h>
#include <sys/syscall.h>
#include <unistd.h>

/// memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); -1 and errno on failure.
static inline int sable_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 0x0001U | 0x0002U);
}

static inline int sable_pango_scale(void) { return PANGO_SCALE; }
#endif
