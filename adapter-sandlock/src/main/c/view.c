/*
 * Landlock has no right for a file's metadata: under sandlock alone a program can chmod, chown, utime or
 * set extended attributes on any file it owns (as root: nearly any file), granted for writing or not. So
 * when a launch states filesystem writes, the guard gives sandlock's process a mount namespace of its own
 * in which every mount is read-only and only the write grants (and sandlock's own state directory) are
 * bound writable: outside them every metadata change fails with EROFS, inside them it works as before.
 * Content stays Landlock's: both say no outside the write grants. The namespace is private: nothing made
 * in it reaches the host's mount table.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "view.h"

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#define ATTR_RDONLY 0x00000001ULL
#define AT_RECURSIVE_FLAG 0x8000
#define TREE_CLONE 1
#define MOVE_EMPTY_PATH 0x00000004
#define MAX_WRITABLE 4096

struct attr {
    uint64_t attr_set, attr_clr, propagation, userns_fd;
};

int view_read_only(const char *const *writable, int n, const char **what) {
    static int clones[MAX_WRITABLE];
    if (n > MAX_WRITABLE) {
        *what = "view_too_many";
        return E2BIG;
    }
    if (unshare(CLONE_NEWNS) < 0) {
        *what = "view_unshare";
        return errno;
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
        *what = "view_private";
        return errno;
    }
    /* Copies of each writable path's mounts, taken before anything is made read-only: they keep the host's
     * own flags, so a mount the host keeps read-only stays so beneath a grant. */
    for (int i = 0; i < n; i++) {
        clones[i] = (int)syscall(SYS_open_tree, AT_FDCWD, writable[i], TREE_CLONE | AT_RECURSIVE_FLAG | O_CLOEXEC);
        if (clones[i] < 0) {
            *what = "view_clone";
            return errno;
        }
    }
    struct attr ro = {ATTR_RDONLY, 0, 0, 0};
    if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE_FLAG, &ro, sizeof ro) < 0) {
        *what = "view_readonly";
        return errno;
    }
    for (int i = 0; i < n; i++) {
        if (syscall(SYS_move_mount, clones[i], "", AT_FDCWD, writable[i], MOVE_EMPTY_PATH) < 0) {
            *what = "view_writable";
            return errno;
        }
        close(clones[i]);
    }
    return 0;
}
