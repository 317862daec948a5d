/* Least authority for sandlock and everything it starts (see authority.c). */
#ifndef AASM_SANDLOCK_AUTHORITY_H
#define AASM_SANDLOCK_AUTHORITY_H

#include <stddef.h>
#include <sys/types.h>

/* A user namespace of the caller's own uid and gid (identity-mapped), where an unprivileged caller holds
 * the capabilities it needs to empty its bounding set. Returns 0, or the errno of the failing step. */
int authority_userns(void);

/* Empties every capability set (bounding and ambient included) and locks the securebits; returns 0 or errno. */
int authority_drop(void);

/* CapInh=..;CapPrm=..;CapEff=..;CapBnd=..;CapAmb=..;NoNewPrivs=..;Seccomp=.. of /proc/<pid>/status. */
int authority_read(pid_t pid, char *out, size_t cap);

#endif
