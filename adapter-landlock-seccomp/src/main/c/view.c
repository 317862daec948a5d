/*
 * The program's filesystem view (VIEW_OP records, PROTOCOL.md "Filesystem view"). Java decides every mount;
 * this file only performs them, in order, and refuses on the first one that cannot be made exactly.
 *
 * The new root is a mount (an empty tmpfs, or a recursive clone of the host's root) stacked on "/". Targets
 * are resolved relative to it with RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS, and sources were opened with
 * RESOLVE_NO_SYMLINKS before anything was mounted: a symlink planted in a source or target path at any time
 * makes the launch refuse instead of redirecting a mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "view.h"

static int root_fd = -1;

int open_resolved(int dirfd, const char *path, int flags, unsigned long long resolve) {
    struct open_how how = {.flags = (unsigned long long)flags, .resolve = resolve};
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

/* "/a/b" -> "a/b"; "/" -> "." (paths relative to the new root). */
static const char *rel(const char *path) {
    while (*path == '/') path++;
    return *path ? path : ".";
}

void view_open_sources(struct plan *p) {
    for (size_t i = 0; i < p->nview; i++) {
        struct viewop *o = &p->view[i];
        if (o->op != VOP_BIND) continue;
        o->fd = open_resolved(AT_FDCWD, o->a, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        if (o->fd < 0) {
            if (errno == ELOOP) refuse("path_symlink", "%s now resolves through a symlink (it did not when planned)", o->a);
            refuse(errno == ENOENT || errno == ENOTDIR ? "missing_path" : "path_access", "%s: %s", o->a, strerror(errno));
        }
    }
}

static int open_in_view(const char *path) {
    return open_resolved(root_fd, rel(path), O_PATH | O_CLOEXEC, RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS);
}

/* Creates every missing directory of `path` inside the view (mkdir -p, never through a symlink). */
static void make_dirs(const char *path, int last_too) {
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", rel(path)) >= (int)sizeof buf) refuse("mount", "view path too long: %s", path);
    for (char *s = buf;; s++) {
        int end = *s == 0;
        if (*s != '/' && !end) continue;
        if (end && !last_too) break;
        char saved = *s;
        *s = 0;
        if (strcmp(buf, ".") != 0 && buf[0]) {
            int fd = open_in_view(buf);
            if (fd >= 0) {
                close(fd);
            } else if (errno != ENOENT || mkdirat(root_fd, buf, 0755) < 0) {
                refuse("mount", "cannot create folder /%s in the view: %s", buf, strerror(errno));
            }
        }
        *s = saved;
        if (end) break;
    }
}

/* The mount point for a source of the given type: a folder, or an empty file for a non-folder. */
static int target_for(const char *path, int is_dir) {
    int fd = open_in_view(path);
    if (fd >= 0) return fd;
    if (errno != ENOENT) refuse("mount", "view target %s: %s", path, strerror(errno));
    make_dirs(path, is_dir);
    if (!is_dir) {
        int f = openat(root_fd, rel(path), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (f < 0) refuse("mount", "cannot create mount point %s in the view: %s", path, strerror(errno));
        close(f);
    }
    fd = open_in_view(path);
    if (fd < 0) refuse("mount", "view target %s: %s", path, strerror(errno));
    return fd;
}

static uint64_t attrs(uint32_t flags) {
    uint64_t a = MOUNT_ATTR_NOSUID;
    if (flags & VF_READ_ONLY) a |= MOUNT_ATTR_RDONLY;
    if (flags & VF_NO_DEV) a |= MOUNT_ATTR_NODEV;
    if (flags & VF_NO_EXEC) a |= MOUNT_ATTR_NOEXEC;
    return a;
}

static void attach(int tree, const char *target, int is_dir) {
    int t = target_for(target, is_dir);
    if (move_mount(tree, "", t, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
        refuse("mount", "mount on %s in the view: %s", target, strerror(errno));
    close(t);
    close(tree);
}

static void bind(struct viewop *o) {
    struct stat st;
    if (fstat(o->fd, &st) < 0) refuse("path_access", "%s: %s", o->a, strerror(errno));
    int tree = open_tree(o->fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
    if (tree < 0) refuse("mount", "clone %s: %s", o->a, strerror(errno));
    struct mount_attr ma = {.attr_set = attrs(o->flags)};
    if (mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &ma, sizeof ma) < 0)
        refuse("mount", "attributes of %s: %s", o->a, strerror(errno));
    close(o->fd);
    o->fd = -1;
    attach(tree, o->b, S_ISDIR(st.st_mode));
}

/* A new filesystem instance (tmpfs, devpts, proc) configured by "key=value,key" options, detached. */
static int new_fs(const char *type, const char *options, uint64_t mount_attrs) {
    int fs = fsopen(type, FSOPEN_CLOEXEC);
    if (fs < 0) refuse("mount", "fsopen %s: %s", type, strerror(errno));
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", options ? options : "");
    char *save = NULL;
    for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        int rc = eq ? (*eq = 0, fsconfig(fs, FSCONFIG_SET_STRING, kv, eq + 1, 0))
                    : fsconfig(fs, FSCONFIG_SET_FLAG, kv, NULL, 0);
        if (rc < 0) refuse("mount", "%s option %s: %s", type, kv, strerror(errno));
    }
    if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) refuse("mount", "create %s: %s", type, strerror(errno));
    int m = fsmount(fs, FSMOUNT_CLOEXEC, (unsigned int)mount_attrs);
    if (m < 0) refuse("mount", "fsmount %s: %s", type, strerror(errno));
    close(fs);
    return m;
}

static void make_symlink(struct viewop *o) {
    make_dirs(o->b, 0);
    if (symlinkat(o->a, root_fd, rel(o->b)) == 0) return;
    char have[4096];
    ssize_t n = errno == EEXIST ? readlinkat(root_fd, rel(o->b), have, sizeof have - 1) : -1;
    if (n >= 0) {
        have[n] = 0;
        if (strcmp(have, o->a) == 0) return; /* already there, e.g. inside a folder bound from the host */
    }
    refuse("mount", "symlink %s -> %s in the view: %s", o->b, o->a, n >= 0 ? "another entry exists" : strerror(errno));
}

static void make_root(struct viewop *o) {
    int tree;
    if (o->flags == VIEW_BASE_EMPTY) {
        tree = new_fs("tmpfs", "mode=0755", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
    } else {
        tree = open_tree(AT_FDCWD, "/", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
        if (tree < 0) refuse("mount", "clone of the host's root: %s", strerror(errno));
        struct mount_attr ma = {.attr_set = attrs(o->flags == VIEW_BASE_HOST_RO ? VF_READ_ONLY : 0)};
        if (mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &ma, sizeof ma) < 0)
            refuse("mount", "attributes of the host's root: %s", strerror(errno));
    }
    if (move_mount(tree, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) < 0)
        refuse("mount", "stack the new root: %s", strerror(errno));
    root_fd = tree;
}

void view_build(struct plan *p) {
    if (p->nview == 0) return;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) refuse("mount", "make / private: %s", strerror(errno));
    view_open_sources(p);
    for (size_t i = 0; i < p->nview; i++) {
        struct viewop *o = &p->view[i];
        switch (o->op) {
        case VOP_ROOT: make_root(o); break;
        case VOP_BIND: bind(o); break;
        case VOP_TMPFS: attach(new_fs("tmpfs", o->a, attrs(o->flags)), o->b, 1); break;
        case VOP_DEVPTS:
            attach(new_fs("devpts", "newinstance,ptmxmode=0666,mode=0620", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC), o->b, 1);
            break;
        case VOP_SYMLINK: make_symlink(o); break;
        case VOP_DIR: make_dirs(o->b, 1); break;
        }
    }
    if (p->view[0].flags == VIEW_BASE_EMPTY) {
        /* Nothing may be created outside the grants: the root itself is read-only (binds keep their own modes). */
        struct mount_attr ma = {.attr_set = MOUNT_ATTR_RDONLY};
        if (mount_setattr(root_fd, "", AT_EMPTY_PATH, &ma, sizeof ma) < 0)
            refuse("mount", "seal the view's root: %s", strerror(errno));
    }
    if (fchdir(root_fd) < 0) refuse("mount", "enter the view: %s", strerror(errno));
    if (syscall(SYS_pivot_root, ".", ".") < 0) refuse("mount", "pivot_root: %s", strerror(errno));
    close(root_fd);
    root_fd = -1;
}

void view_detach_old_root(void) {
    if (umount2(".", MNT_DETACH) < 0) refuse("mount", "detach the host's root: %s", strerror(errno));
    if (chdir("/") < 0) refuse("mount", "chdir /: %s", strerror(errno));
}

int view_mount_proc(int attach_it) {
    if (!attach_it) {
        /* Only for reading the program's status: without a mount namespace of our own this may be refused,
         * and then the authority line says so instead of the launch failing. */
        int fs = fsopen("proc", FSOPEN_CLOEXEC);
        if (fs < 0) return -1;
        int m = fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0 ? -1
                : fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
        close(fs);
        return m;
    }
    int m = new_fs("proc", NULL, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
    int t = open_resolved(AT_FDCWD, "/proc", O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS);
    if (t < 0) refuse("mount", "/proc in the view: %s", strerror(errno));
    if (move_mount(m, "", t, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
        refuse("mount", "fresh /proc: %s", strerror(errno));
    close(t);
    return m; /* still refers to the mount, now attached */
}
