/* What the program child installs on itself before execve (PROTOCOL.md, "Order in the program child"). */
#ifndef AASM_GUEST_CAGE_H
#define AASM_GUEST_CAGE_H

#include <stddef.h>

#include "plan.h"

/* Each returns 0, or -1 with "token:detail" in err. */
int cage_landlock(const struct plan *p, char *err, size_t cap);
int cage_identity(const struct plan *p, char *err, size_t cap);
int cage_seccomp(const struct plan *p, char *err, size_t cap);
int cage_rlimits(const struct plan *p, char *err, size_t cap);

/* The program's own capability sets, no_new_privs and seccomp mode, as "CapInh=..;..." (from /proc). */
int cage_read_authority(int pid, char *out, size_t cap);

#endif
