/* A read-only view of the host's mounts for sandlock's process (see view.c). */
#ifndef AASM_SANDLOCK_VIEW_H
#define AASM_SANDLOCK_VIEW_H

/* In a mount namespace of its own: every mount read-only, then each of the n paths bound onto itself
 * writable. Needs CAP_SYS_ADMIN over the current user namespace. Returns 0, or the errno of the failing
 * step with *what naming it. */
int view_read_only(const char *const *writable, int n, const char **what);

#endif
