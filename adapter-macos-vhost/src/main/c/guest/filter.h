/* The guest's seccomp programs, compiled in the guest from the plan's by-name descriptions (PROTOCOL.md, "Seccomp
 * by name"), so the numbers are those of the guest's own architecture whatever the host is. */
#ifndef AASM_GUEST_FILTER_H
#define AASM_GUEST_FILTER_H

#include <stddef.h>

#include "plan.h"

/* Compiles every R_SECCOMP description into p->bpf and resolves the syscall canary's call; 0, or -1 with a
 * "token:detail" reason (an unknown call name refuses the plan; nothing has been applied yet). */
int filter_compile(struct plan *p, char *err, size_t cap);

#endif
