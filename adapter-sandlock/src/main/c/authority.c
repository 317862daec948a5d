/*
 * Least authority, applied in sandlock's process before it is executed, so sandlock's supervisor, the
 * program and every descendant inherit it: every capability set emptied (as root too), the securebits
 * that would hand a root program its capabilities back at execve locked, and no_new_privs. A caller
 * without CAP_SETPCAP cannot empty its bounding set where it is, so it first enters a user namespace of
 * its own uid (mapped to itself), where it can. Nothing here is undone later: the bounding, inheritable
 * and ambient sets stay empty and no_new_privs stays set for the whole tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/securebits.h>

#include "authority.h"

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

static int put(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ssize_t n = write(fd, text, strlen(text));
    int err = n == (ssize_t)strlen(text) ? 0 : (n < 0 ? errno : EIO);
    close(fd);
    return err;
}

int authority_userns(void) {
    uid_t uid = getuid();
    gid_t gid = getgid();
    /* The guard is not dumpable, and neither is this fork of it: /proc/self would then belong to root and
     * the maps could not be written by an unprivileged caller. execve of sandlock resets it anyway. */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    if (unshare(CLONE_NEWUSER) < 0) return errno;
    char map[64];
    int err = put("/proc/self/setgroups", "deny");
    if (err) return err;
    snprintf(map, sizeof map, "%u %u 1", (unsigned)uid, (unsigned)uid);
    if ((err = put("/proc/self/uid_map", map))) return err;
    snprintf(map, sizeof map, "%u %u 1", (unsigned)gid, (unsigned)gid);
    return put("/proc/self/gid_map", map);
}

int authority_drop(void) {
    unsigned long bits = SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED
                         | SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE
                         | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) < 0) return errno;
    for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) return errno;
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL) return errno;
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &hdr, data) < 0) return errno;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return errno;
    return 0;
}

int authority_read(pid_t pid, char *out, size_t cap) {
    static const char *keys[] = {"CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:", "NoNewPrivs:", "Seccomp:"};
    char path[48], buf[8192];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    size_t len = 0;
    out[0] = 0;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        char *at = strstr(buf, keys[k]);
        if (at && at != buf && at[-1] != '\n') at = NULL; /* a key starts a line */
        if (!at) return -1;
        char *v = at + strlen(keys[k]);
        while (*v == ' ' || *v == '\t') v++;
        int vl = (int)strcspn(v, "\n");
        int w = snprintf(out + len, cap - len, "%s%.*s=%.*s", len ? ";" : "", (int)strlen(keys[k]) - 1, keys[k], vl, v);
        if (w < 0 || (size_t)w >= cap - len) return -1;
        len += (size_t)w;
    }
    return 0;
}
