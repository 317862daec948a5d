/*
 * The view: a read-only tmpfs root holding only what the plan names. Shares are mounted by the agent under
 * SHARE_ROOT (outside the view) and bound into it, so a share's other contents never appear; every path
 * inside a share or the view is resolved without following symlinks (openat2 RESOLVE_NO_SYMLINKS), so a
 * symlink planted in a share since planning refuses the launch instead of binding anything else.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "view.h"

static int fail(char *err, size_t cap, const char *token, const char *fmt, ...) {
    char detail[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(err, cap, "%s:%s", token, detail);
    return -1;
}

static int open_nofollow(int dirfd, const char *path, int flags, int beneath) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(flags | O_CLOEXEC);
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | (beneath ? RESOLVE_IN_ROOT : 0);
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

/* Creates every missing folder of path below VIEW_ROOT (no symlink followed). */
static int mkdirs(const char *path) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1;; s++) {
        if (*s == '/' || *s == 0) {
            char c = *s;
            *s = 0;
            char full[4200];
            snprintf(full, sizeof full, VIEW_ROOT "%s", buf);
            if (mkdir(full, 0755) < 0 && errno != EEXIST) return -1;
            struct stat st;
            if (lstat(full, &st) < 0 || !S_ISDIR(st.st_mode)) {
                errno = ENOTDIR;
                return -1;
            }
            *s = c;
            if (!c) return 0;
        }
    }
}

/* The mount target for a source of the given type: a folder, or an empty file where none exists. */
static int make_target(const char *target, int dir) {
    char full[4200], parent[4096];
    if (dir) return mkdirs(target);
    snprintf(parent, sizeof parent, "%s", target);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = 0;
        if (mkdirs(parent) < 0) return -1;
    }
    snprintf(full, sizeof full, VIEW_ROOT "%s", target);
    struct stat st;
    if (lstat(full, &st) == 0) return S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode) ? (errno = EEXIST, -1) : 0;
    int fd = open(full, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0444);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

static int bind_fd(int fd, const char *target, int ro, unsigned long extra) {
    char src[64], full[4200];
    snprintf(src, sizeof src, "/proc/self/fd/%d", fd);
    snprintf(full, sizeof full, VIEW_ROOT "%s", target);
    int tfd = open_nofollow(AT_FDCWD, full, O_PATH, 0);
    if (tfd < 0) return -1;
    char tpath[64];
    snprintf(tpath, sizeof tpath, "/proc/self/fd/%d", tfd);
    int rc = mount(src, tpath, NULL, MS_BIND | MS_REC, NULL);
    close(tfd);
    if (rc < 0) return -1;
    unsigned long flags = MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | extra | (ro ? MS_RDONLY : 0);
    return mount(NULL, full, NULL, flags, NULL);
}

static int share_mounts(const struct plan *p, char *err, size_t cap) {
    mkdir(SHARE_ROOT, 0700);
    for (int i = 0; i < p->nshares; i++) {
        char dir[64], opts[160];
        const char *tag = p->share_tag[i], *type = "9p";
        snprintf(dir, sizeof dir, SHARE_ROOT "/%d", p->share_slot[i]);
        /* loose caching only where nothing in the guest writes; writable shares must see host changes at once */
        snprintf(opts, sizeof opts, "trans=virtio,version=9p2000.L,msize=512000,cache=%s",
                 p->share_ro[i] ? "loose" : "mmap");
        if (p->share_transport[i] == SHARE_VIRTIOFS) {
            /* caching is the host daemon's choice (virtiofsd -o cache=); the guest mount takes no options here */
            type = "virtiofs";
            opts[0] = 0;
        }
        mkdir(dir, 0700);
        unsigned long flags = MS_NOSUID | MS_NODEV | (p->share_ro[i] ? MS_RDONLY : 0);
        if (mount(tag, dir, type, flags, opts) < 0)
            return fail(err, cap, "mount", "%s share %s: %s", type, tag, strerror(errno));
    }
    return 0;
}

static int bind_op(const struct view_op *op, char *err, size_t cap) {
    char root[64];
    snprintf(root, sizeof root, SHARE_ROOT "/%d", op->slot);
    int rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (rfd < 0) return fail(err, cap, "mount", "share slot %d is not mounted: %s", op->slot, strerror(errno));
    const char *sub = op->source[0] ? op->source : ".";
    int fd = open_nofollow(rfd, sub, O_PATH, 1);
    close(rfd);
    if (fd < 0) return fail(err, cap, errno == ELOOP ? "path_symlink" : "missing_path", "%s in share %d: %s", sub,
                            op->slot, strerror(errno));
    struct stat st;
    int rc = fstat(fd, &st);
    if (rc == 0) rc = make_target(op->target, S_ISDIR(st.st_mode));
    if (rc == 0) rc = bind_fd(fd, op->target, op->flags & BIND_RO, 0);
    int e = errno;
    close(fd);
    return rc < 0 ? fail(err, cap, "mount", "bind %s: %s", op->target, strerror(e)) : 0;
}

static int file_op(const struct view_op *op, int n, char *err, size_t cap) {
    char gen[64];
    mkdir("/.gen", 0700);
    snprintf(gen, sizeof gen, "/.gen/%d", n);
    int fd = open(gen, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
    if (fd < 0 || write(fd, op->data.p, op->data.n) != (ssize_t)op->data.n)
        return fail(err, cap, "mount", "generated %s: %s", op->target, strerror(errno));
    close(fd);
    fd = open(gen, O_PATH | O_CLOEXEC);
    int rc = make_target(op->target, 0);
    if (rc == 0) rc = bind_fd(fd, op->target, 1, MS_NOEXEC);
    int e = errno;
    close(fd);
    return rc < 0 ? fail(err, cap, "mount", "generated %s: %s", op->target, strerror(e)) : 0;
}

static int fresh(const char *type, const char *target, unsigned long flags, const char *opts) {
    char full[4200];
    snprintf(full, sizeof full, VIEW_ROOT "%s", target);
    return mkdirs(target) < 0 ? -1 : mount(type, full, type, flags, opts);
}

static int op_apply(const struct view_op *op, int n, char *err, size_t cap) {
    char full[4200];
    int rc = 0;
    snprintf(full, sizeof full, VIEW_ROOT "%s", op->target);
    switch (op->kind) {
    case R_BIND:
        return bind_op(op, err, cap);
    case R_FILE:
        return file_op(op, n, err, cap);
    case R_TMPFS:
        rc = fresh("tmpfs", op->target, MS_NOSUID | MS_NODEV, "mode=1777,size=50%");
        break;
    case R_PROC:
        rc = fresh("proc", op->target, MS_NOSUID | MS_NODEV | MS_NOEXEC, "");
        break;
    case R_SYSFS:
        rc = fresh("sysfs", op->target, MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, "");
        break;
    case R_DIR:
        rc = mkdirs(op->target);
        break;
    case R_SYMLINK: {
        char parent[4096];
        snprintf(parent, sizeof parent, "%s", op->target);
        *strrchr(parent, '/') = 0;
        if (parent[0] && mkdirs(parent) < 0) rc = -1;
        else if (symlink(op->source, full) < 0 && errno != EEXIST) rc = -1;
        break;
    }
    }
    return rc < 0 ? fail(err, cap, "mount", "%s: %s", op->target, strerror(errno)) : 0;
}

/* The standard device set every view has, without a grant (the same as the native backend's). */
static int devices(char *err, size_t cap) {
    static const struct { const char *name; int major, minor; } nodes[] = {
        {"null", 1, 3}, {"zero", 1, 5}, {"full", 1, 7}, {"random", 1, 8}, {"urandom", 1, 9}, {"tty", 5, 0}};
    if (fresh("tmpfs", "/dev", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") < 0)
        return fail(err, cap, "mount", "/dev: %s", strerror(errno));
    for (size_t i = 0; i < sizeof nodes / sizeof *nodes; i++) {
        char path[64];
        snprintf(path, sizeof path, VIEW_ROOT "/dev/%s", nodes[i].name);
        if (mknod(path, S_IFCHR | 0666, makedev(nodes[i].major, nodes[i].minor)) < 0 || chmod(path, 0666) < 0)
            return fail(err, cap, "mount", "/dev/%s: %s", nodes[i].name, strerror(errno));
    }
    if (fresh("devpts", "/dev/pts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620") < 0
        || fresh("tmpfs", "/dev/shm", MS_NOSUID | MS_NODEV, "mode=1777,size=50%") < 0
        || symlink("pts/ptmx", VIEW_ROOT "/dev/ptmx") < 0 || symlink("/proc/self/fd", VIEW_ROOT "/dev/fd") < 0
        || symlink("/proc/self/fd/0", VIEW_ROOT "/dev/stdin") < 0
        || symlink("/proc/self/fd/1", VIEW_ROOT "/dev/stdout") < 0
        || symlink("/proc/self/fd/2", VIEW_ROOT "/dev/stderr") < 0)
        return fail(err, cap, "mount", "/dev: %s", strerror(errno));
    if (mount(NULL, VIEW_ROOT "/dev", NULL, MS_REMOUNT | MS_NOSUID | MS_NOEXEC | MS_RDONLY, "mode=0755,size=64k") < 0)
        return fail(err, cap, "mount", "/dev read-only: %s", strerror(errno));
    return 0;
}

int view_build(const struct plan *p, char *err, size_t cap) {
    mkdir(VIEW_ROOT, 0755);
    if (mount("tmpfs", VIEW_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") < 0)
        return fail(err, cap, "mount", "view root: %s", strerror(errno));
    /* the root tmpfs itself, even once a grant of "/" is bound over it */
    int base = open(VIEW_ROOT, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (base < 0) return fail(err, cap, "mount", "view root: %s", strerror(errno));
    if (share_mounts(p, err, cap) < 0) return -1;
    for (int i = 0; i < p->nops; i++) {
        if (strcmp(p->ops[i].target, "/dev") == 0 || strncmp(p->ops[i].target, "/dev/", 5) == 0) continue;
        if (op_apply(&p->ops[i], i, err, cap) < 0) return -1;
    }
    if (devices(err, cap) < 0) return -1;
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", base);
    int rc = mount(NULL, self, NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | MS_RDONLY, NULL);
    int e = errno;
    close(base);
    return rc < 0 ? fail(err, cap, "mount", "view root read-only: %s", strerror(e)) : 0;
}
