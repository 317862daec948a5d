/* The program's filesystem view (view.c, PROTOCOL.md "Filesystem view"). */
#ifndef AASM_VIEW_H
#define AASM_VIEW_H

#include "plan.h"

/* openat2 with the given resolve flags; -1 and errno on failure. */
int open_resolved(int dirfd, const char *path, int flags, unsigned long long resolve);

/* Opens every BIND source without following symlinks, in the new (still host-shaped) mount namespace. */
void view_open_sources(struct plan *p);

/*
 * Builds the view on a new root stacked on "/" and pivots into it. The old root stays attached (under the
 * new one) until view_detach_old_root(): a fresh procfs of a new pid namespace can only be mounted while
 * another procfs is fully visible in the mount namespace.
 */
void view_build(struct plan *p);

/* Detaches the old root; the calling process's working directory must still be the new root. */
void view_detach_old_root(void);

/* Mounts a procfs of the caller's pid namespace, detached; attaches it at /proc when attach is set. */
int view_mount_proc(int attach);

#endif
