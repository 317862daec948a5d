/*
 * Least authority, measured. DROP_CAPS empties every capability set of the program child (as root too) and
 * locks the securebits that would otherwise hand a root program its capabilities back at execve. init then
 * reads the program's own /proc/<pid>/status right after its execve and reports it (the "authority:" line),
 * so the report's least-authority claim rests on what the program actually held, not on what was planned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/securebits.h>

#include "authority.h"
#include "plan.h"

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

void drop_capabilities(void) {
    unsigned long bits = SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED
                         | SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE
                         | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) < 0) refuse("capabilities", "lock securebits: %s", strerror(errno));
    for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
            refuse("capabilities", "drop capability %d from the bounding set: %s", cap, strerror(errno));
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
        refuse("capabilities", "clear ambient capabilities: %s", strerror(errno));
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &hdr, data) < 0) refuse("capabilities", "clear capability sets: %s", strerror(errno));
}

int read_authority(int proc_fd, int pid, char *out, size_t cap) {
    static const char *keys[] = {"CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:", "NoNewPrivs:", "Seccomp:",
                                 "Seccomp_filters:"};
    char path[32], buf[8192];
    snprintf(path, sizeof path, "%d/status", pid);
    int fd = openat(proc_fd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    size_t len = 0;
    out[0] = 0;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        char *at = strstr(buf, keys[k]);
        if (at && at != buf && at[-1] != '\n') at = NULL; /* a key must start a line */
        if (!at) continue;
        char *v = at + strlen(keys[k]);
        while (*v == ' ' || *v == '\t') v++;
        size_t vl = strcspn(v, "\n");
        int w = snprintf(out + len, cap - len, "%s%.*s=%.*s", len ? ";" : "", (int)(strlen(keys[k]) - 1), keys[k],
                         (int)vl, v);
        if (w < 0 || (size_t)w >= cap - len) return -1;
        len += (size_t)w;
    }
    return 0;
}
