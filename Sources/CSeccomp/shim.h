#ifndef CSECCOMP_SHIM_H
#define CSECCOMP_SHIM_H
// libseccomp (apt: libseccomp-dev). Swift cannot call the variadic seccomp_rule_add;
// the Lockdown target uses seccomp_rule_add_array.
#include <seccomp.h>
#endif
