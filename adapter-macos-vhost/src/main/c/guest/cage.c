/*
 * The program child's own confinement, inside the guest, in a fixed order: rlimits, no_new_privs, Landlock
 * (rules opened inside the view, so they bind what the program will see), identity and capabilities (every
 * set emptied; as root the securebits are locked so execve cannot hand them back), then the seccomp filters
 * (last, so they need not allow any of the setup).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/securebits.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cage.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

static int fail(char *err, size_t cap, const char *token, const char *fmt, ...) {
    char detail[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(err, cap, "%s:%s", token, detail);
    return -1;
}

/* Every filesystem right the guest kernel's Landlock ABI knows. */
static unsigned long long handled_fs(long abi) {
    unsigned long long all = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1: execute .. make_sym */
    if (abi >= 2) all |= LANDLOCK_ACCESS_FS_REFER;
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3) all |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    return all;
}

static unsigned long long rights(int cls, unsigned long long handled, int dir) {
    unsigned long long read = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE
                              | (dir ? LANDLOCK_ACCESS_FS_READ_DIR : 0);
    unsigned long long file_write = LANDLOCK_ACCESS_FS_WRITE_FILE;
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    file_write |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    switch (cls) {
    case 1:
        return read & handled;
    case 2:
        return (dir ? handled : read | file_write) & handled;
    default: /* a device: read and write it, nothing else */
        return (LANDLOCK_ACCESS_FS_READ_FILE | file_write) & handled;
    }
}

int cage_landlock(const struct plan *p, char *err, size_t cap) {
    if (!(p->flags & PLAN_F_LANDLOCK)) return 0;
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return fail(err, cap, "landlock_ruleset", "the guest kernel has no Landlock: %s", strerror(errno));
    struct landlock_ruleset_attr attr = {.handled_access_fs = handled_fs(abi)};
    int rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (rs < 0) return fail(err, cap, "landlock_ruleset", "%s", strerror(errno));
    for (int i = 0; i < p->nrules; i++) {
        int fd = open(p->rules[i].path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) return fail(err, cap, "missing_path", "landlock rule %s: %s", p->rules[i].path, strerror(errno));
        struct stat st;
        int dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
        struct landlock_path_beneath_attr pb = {.allowed_access = rights(p->rules[i].cls, attr.handled_access_fs, dir),
                                                .parent_fd = fd};
        if (syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
            return fail(err, cap, "landlock_rule", "%s: %s", p->rules[i].path, strerror(errno));
        close(fd);
    }
    if (syscall(SYS_landlock_restrict_self, rs, 0) < 0) return fail(err, cap, "landlock_restrict", "%s", strerror(errno));
    close(rs);
    return 0;
}

static int drop_bounding(char *err, size_t cap) {
    for (int c = 0; prctl(PR_CAPBSET_READ, c, 0, 0, 0) >= 0; c++)
        if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0)
            return fail(err, cap, "capabilities", "drop %d from the bounding set: %s", c, strerror(errno));
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
        return fail(err, cap, "capabilities", "clear ambient: %s", strerror(errno));
    return 0;
}

int cage_identity(const struct plan *p, char *err, size_t cap) {
    uid_t uid = p->have_ids ? p->uid : 0;
    gid_t gid = p->have_ids ? p->gid : 0;
    if (drop_bounding(err, cap) < 0) return -1;
    if (uid == 0) { /* root keeps its uid, so nothing may hand it capabilities again at execve */
        unsigned long bits = SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED
                             | SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE
                             | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
        if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) < 0)
            return fail(err, cap, "capabilities", "lock securebits: %s", strerror(errno));
    }
    if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
        return fail(err, cap, "identity", "uid %u gid %u: %s", uid, gid, strerror(errno));
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &hdr, data) < 0) return fail(err, cap, "capabilities", "clear sets: %s", strerror(errno));
    return 0;
}

int cage_seccomp(const struct plan *p, char *err, size_t cap) {
    for (int i = 0; i < p->nseccomp; i++) {
        struct sock_fprog prog = {.len = (unsigned short)(p->bpf[i].n / 8), .filter = (struct sock_filter *)p->bpf[i].p};
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
            return fail(err, cap, "seccomp", "filter %d: %s", i, strerror(errno));
    }
    return 0;
}

int cage_rlimits(const struct plan *p, char *err, size_t cap) {
    for (int i = 0; i < p->nrlimits; i++) {
        struct rlimit r = {.rlim_cur = p->rlimits[i].soft, .rlim_max = p->rlimits[i].hard};
        if (setrlimit((int)p->rlimits[i].resource, &r) < 0)
            return fail(err, cap, "setrlimit", "resource %u: %s", p->rlimits[i].resource, strerror(errno));
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return fail(err, cap, "no_new_privs", "%s", strerror(errno));
    return 0;
}

int cage_read_authority(int pid, char *out, size_t cap) {
    static const char *keys[] = {"CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:", "NoNewPrivs:", "Seccomp:",
                                 "Seccomp_filters:"};
    char path[40], buf[8192];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
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
        if (at && at != buf && at[-1] != '\n') at = NULL;
        if (!at) continue;
        char *v = at + strlen(keys[k]);
        while (*v == ' ' || *v == '\t') v++;
        int w = snprintf(out + len, cap - len, "%s%.*s=%.*s", len ? ";" : "", (int)(strlen(keys[k]) - 1), keys[k],
                         (int)strcspn(v, "\n"), v);
        if (w < 0 || (size_t)w >= cap - len) return -1;
        len += (size_t)w;
    }
    return 0;
}
