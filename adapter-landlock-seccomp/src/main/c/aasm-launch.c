/*
 * aasm-launch: installs one already-decided plan on itself and execve()s the program, or refuses.
 * The wire format, the fixed order and every status line are specified in PROTOCOL.md next to this file.
 * There is no decision logic here: every value comes from the plan; the launcher only checks that it can
 * install exactly that, and refuses (exit 121, "refused:<token>:<detail>") otherwise.
 *
 * Processes: the launcher ("outer", the supervisor's child) -> init (pid 1 of the new pid namespace, or a
 * sub-reaper) -> the program. The outer process holds the status channel and the lifeline.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include "authority.h"
#include "canary.h"
#include "decisions.h"
#include "inject.h"
#include "plan.h"
#include "pty.h"
#include "relay.h"
#include "view.h"
#include "zygote.h"

#define EXIT_REFUSED 121
#define EXIT_LAUNCHER_ERROR 122
#define EXIT_LIFELINE 137

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* struct clone_args (linux/sched.h clashes with <sched.h>); the fields up to cgroup, version 2 (Linux 5.7). */
struct clone_args_v2 {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};
#define AASM_CLONE_INTO_CGROUP 0x200000000ULL
#define AASM_CGROUP2_SUPER_MAGIC 0x63677270

struct ll_ruleset_attr { uint64_t handled_access_fs, handled_access_net, scoped; };
struct ll_path_beneath_attr { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed));
struct ll_net_port_attr { uint64_t allowed_access; uint64_t port; };

/* Where refusals and reports go: the status channel in the launcher, the exec pipe in init/program. */
static int report_fd = -1;
static struct timespec t_start, t_plan;
/* Where the setup's time goes (PROTOCOL.md, `stages:`): absolute CLOCK_MONOTONIC stamps, inherited by init and
 * the program child through fork, so the child can say them all in one line before its filters go in. */
static struct timespec t_namespaces, t_init, t_landlock, t_cgroups, t_exited;

static long abs_ns(const struct timespec *t) { return t->tv_sec * 1000000000L + t->tv_nsec; }
static struct plan P;

/* RELAY_TCP_PORT: the relay process (host network namespace) and init's end of its socketpair. */
static pid_t relay_pid = -1;
static int relay_sock = -1;

/* kill: the supervisor is gone. Otherwise the relay ends by itself once init has gone (it delivers what the
 * program sent before it ended, for at most RELAY_DRAIN_SECONDS), and is reaped before the exit is reported. */
static void stop_relay(int kill_now) {
    if (relay_pid <= 0) return;
    if (kill_now) kill(relay_pid, SIGKILL);
    while (waitpid(relay_pid, NULL, 0) < 0 && errno == EINTR) {}
    relay_pid = -1;
}

/* Inherited descriptors at start (before the launcher opened anything). */
#define MAX_INHERITED 4096
static int inherited[MAX_INHERITED];
static size_t ninherited;
static int inventory_complete;

static void write_all(int fd, const char *buf, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return; /* the reader is gone: nothing useful to do */
        buf += n;
        len -= (size_t)n;
    }
}

static void line(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(int fd, const char *fmt, ...) {
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n > sizeof buf - 2) n = sizeof buf - 2;
    for (int i = 0; i < n; i++)
        if (buf[i] == '\n' || buf[i] == '\r') buf[i] = ' ';
    buf[n++] = '\n';
    write_all(fd < 0 ? 2 : fd, buf, (size_t)n);
}

void refuse(const char *token, const char *fmt, ...) {
    char detail[3072];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    pty_restore();
    if (report_fd < 0) {
        line(2, "aasm-launch: refused:%s:%s", token, detail);
    } else {
        line(report_fd, "refused:%s:%s", token, detail);
    }
    _exit(EXIT_REFUSED);
}

static long ns_between(const struct timespec *a, const struct timespec *b) {
    return (b->tv_sec - a->tv_sec) * 1000000000L + (b->tv_nsec - a->tv_nsec);
}

/* ---------- channel ---------- */

static int plan_fd = -1, status_fd = -1, lifeline_capable = 1;

static void open_channel(const char *spec) {
    if (strncmp(spec, "unix:", 5) == 0) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        const char *path = spec + 5;
        if (path[0] != '/' || strlen(path) >= sizeof sa.sun_path) refuse("channel", "bad socket path %s", path);
        strcpy(sa.sun_path, path);
        int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof sa) < 0)
            refuse("channel", "cannot connect to %s: %s", path, strerror(errno));
        plan_fd = status_fd = s;
    } else if (strncmp(spec, "fd:", 3) == 0) {
        int r, w;
        char extra;
        if (sscanf(spec + 3, "%d,%d%c", &r, &w, &extra) != 2 || r < 0 || w < 0)
            refuse("channel", "expected fd:<read>,<write>, got %s", spec);
        if (fcntl(r, F_GETFD) < 0 || fcntl(w, F_GETFD) < 0) refuse("channel", "descriptor not open in %s", spec);
        fcntl(r, F_SETFD, FD_CLOEXEC);
        fcntl(w, F_SETFD, FD_CLOEXEC);
        /* Only a pipe, FIFO or socket signals the supervisor's death by end of file. */
        struct stat st;
        if (fstat(r, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) lifeline_capable = 0;
        plan_fd = r;
        status_fd = w;
    } else {
        refuse("channel", "usage: aasm-launch unix:<socket> | fd:<read>,<write>");
    }
    report_fd = status_fd;
}

static int read_full(int fd, void *buf, size_t len) {
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    return 0;
}

static unsigned char *read_message(uint32_t *body_len) {
    unsigned char h[12];
    if (read_full(plan_fd, h, sizeof h) < 0) refuse("truncated", "message header shorter than 12 bytes");
    if (memcmp(h, "AALP", 4) != 0) refuse("bad_magic", "expected AALP");
    uint16_t version = (uint16_t)(h[4] | h[5] << 8), flags = (uint16_t)(h[6] | h[7] << 8);
    if (version != PLAN_VERSION) refuse("bad_version", "launcher speaks %d, message is %u", PLAN_VERSION, version);
    if (flags != 0) refuse("bad_header", "unknown header flags 0x%x", flags);
    uint32_t len = (uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24;
    if (len > PLAN_MAX_BODY) refuse("too_large", "body of %u bytes exceeds %u", len, PLAN_MAX_BODY);
    unsigned char *body = malloc(len ? len : 1);
    if (!body) refuse("internal", "out of memory");
    if (read_full(plan_fd, body, len) < 0) refuse("truncated", "body shorter than the declared %u bytes", len);
    *body_len = len;
    return body;
}

/* ---------- inventory of inherited descriptors ---------- */

static void take_inventory(void) {
    DIR *d = opendir("/proc/self/fd");
    inventory_complete = 1;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            int fd = atoi(e->d_name);
            if (fd == dirfd(d)) continue;
            if (ninherited < MAX_INHERITED) inherited[ninherited++] = fd;
            else inventory_complete = 0;
        }
        closedir(d);
        return;
    }
    /* No /proc: probe every descriptor number below the soft limit. */
    struct rlimit rl;
    long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? (long)rl.rlim_cur : 65536;
    if (max > 65536) { max = 65536; inventory_complete = 0; }
    for (long fd = 0; fd < max; fd++) {
        if (fcntl((int)fd, F_GETFD) < 0) continue;
        if (ninherited < MAX_INHERITED) inherited[ninherited++] = (int)fd;
        else inventory_complete = 0;
    }
}

static int is_inherited(int fd) {
    for (size_t i = 0; i < ninherited; i++)
        if (inherited[i] == fd) return 1;
    return 0;
}

static int is_kept(int fd) {
    for (size_t i = 0; i < P.nkeep; i++)
        if (P.keep[i] == fd) return 1;
    return 0;
}

/* ---------- step 2: open what must be opened before the namespaces ---------- */

/* The procfs init reads the program's status from: its own namespace's (pid namespace) or the host's. */
static int proc_fd = -1;

/* A group in a cgroup2 hierarchy is joined by creating the program child in it (clone3 CLONE_INTO_CGROUP), every
 * other one by init writing 0 to the file. A write to cgroup.procs takes the cgroup threadgroup lock for writing,
 * whose first taker waits for an RCU grace period: about 11 ms under load on the development machine, the
 * largest stage of a launch. A v1 `tasks` file moves one thread (init has one) without that lock; cgroup2 has no
 * such file, and a process created in the group needs no migration at all. */
static int into_cgroup_fd = -1;
static size_t into_cgroup_index;

static void open_before_namespaces(void) {
    for (size_t i = 0; i < P.ncgroups; i++) {
        P.cgroup_fds[i] = open(P.cgroups[i], O_WRONLY | O_CLOEXEC);
        if (P.cgroup_fds[i] < 0) refuse("cgroup_join", "open %s: %s", P.cgroups[i], strerror(errno));
        struct statfs sf;
        if (into_cgroup_fd < 0 && fstatfs(P.cgroup_fds[i], &sf) == 0 && sf.f_type == AASM_CGROUP2_SUPER_MAGIC) {
            char dir[4096];
            snprintf(dir, sizeof dir, "%s", P.cgroups[i]);
            char *slash = strrchr(dir, '/');
            if (slash && slash != dir) {
                *slash = 0;
                into_cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                into_cgroup_index = i;
            }
        }
    }
    if (!(P.ns & NS_PID)) proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* ---------- init, after the view: the Landlock ruleset, on the objects the program will see ---------- */

static int ruleset_fd = -1;

static void build_ruleset(void) {
    if (!P.has_ruleset) return;
    struct ll_ruleset_attr attr = {P.ll_fs, P.ll_net, P.ll_scoped};
    ruleset_fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset_fd < 0) {
        long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1 /* LANDLOCK_CREATE_RULESET_VERSION */);
        refuse("landlock_ruleset", "fs=0x%llx net=0x%llx scoped=0x%llx: %s (host ABI %ld)",
               (unsigned long long)P.ll_fs, (unsigned long long)P.ll_net, (unsigned long long)P.ll_scoped,
               strerror(errno), abi);
    }
    fcntl(ruleset_fd, F_SETFD, FD_CLOEXEC);
    for (size_t i = 0; i < P.npaths; i++) {
        /* Paths are real paths (Java resolved them): a symlink now means something changed since planning. */
        int fd = open_resolved(AT_FDCWD, P.paths[i].path, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        if (fd < 0) {
            if (errno == ELOOP) refuse("path_symlink", "%s now resolves through a symlink", P.paths[i].path);
            refuse(errno == ENOENT || errno == ENOTDIR ? "missing_path" : "path_access", "%s: %s", P.paths[i].path,
                   strerror(errno));
        }
        struct ll_path_beneath_attr pb = {P.paths[i].allowed, fd};
        if (syscall(SYS_landlock_add_rule, ruleset_fd, 1 /* PATH_BENEATH */, &pb, 0) < 0)
            refuse("landlock_rule", "%s allowed=0x%llx: %s", P.paths[i].path,
                   (unsigned long long)P.paths[i].allowed, strerror(errno));
        close(fd);
    }
    for (size_t i = 0; i < P.nports; i++) {
        struct ll_net_port_attr np = {P.ports[i].allowed, P.ports[i].port};
        if (syscall(SYS_landlock_add_rule, ruleset_fd, 2 /* NET_PORT */, &np, 0) < 0)
            refuse("landlock_rule", "port %llu allowed=0x%llx: %s", (unsigned long long)P.ports[i].port,
                   (unsigned long long)P.ports[i].allowed, strerror(errno));
    }
}

/* ---------- step 3: namespaces and mounts ---------- */

static void write_proc_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) refuse("userns_map", "open %s: %s", path, strerror(errno));
    ssize_t n = write(fd, text, strlen(text));
    if (n != (ssize_t)strlen(text)) refuse("userns_map", "write '%s' to %s: %s", text, path, strerror(errno));
    close(fd);
}

static void bring_loopback_up(void) {
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0) refuse("loopback", "query lo: %s", strerror(errno));
    ifr.ifr_flags |= IFF_UP;
    if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0) refuse("loopback", "set lo up: %s", strerror(errno));
    close(s);
}

static void enter_namespaces(void) {
    if (P.ns) {
        int flags = 0;
        if (P.ns & NS_USER) flags |= CLONE_NEWUSER;
        if (P.ns & NS_PID) flags |= CLONE_NEWPID;
        if (P.ns & NS_NET) flags |= CLONE_NEWNET;
        if (P.ns & NS_IPC) flags |= CLONE_NEWIPC;
        if (P.ns & NS_MOUNT) flags |= CLONE_NEWNS;
        if (unshare(flags) < 0) refuse("unshare", "namespaces 0x%x: %s", P.ns, strerror(errno));
    }
    if (P.has_usermap) {
        char buf[64];
        int fd = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
        if (fd >= 0) { /* absent before Linux 3.19, when gid_map needs no "deny" */
            if (write(fd, "deny", 4) != 4) refuse("userns_map", "setgroups deny: %s", strerror(errno));
            close(fd);
        }
        snprintf(buf, sizeof buf, "%u %u 1\n", P.map[2], P.map[3]);
        write_proc_file("/proc/self/gid_map", buf);
        snprintf(buf, sizeof buf, "%u %u 1\n", P.map[0], P.map[1]);
        write_proc_file("/proc/self/uid_map", buf);
    }
    if ((P.ns & NS_MOUNT) && P.nview == 0 && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        refuse("mount", "make / private: %s", strerror(errno));
    view_build(&P);
    /* Without a pid namespace no fresh procfs is needed: the host's root can go at once. */
    if (P.nview && !(P.ns & NS_PID)) view_detach_old_root();
    if (P.lo_up) bring_loopback_up();
}

static void join_by_write(size_t i) {
    if (write(P.cgroup_fds[i], "0", 1) != 1) refuse("cgroup_join", "%s: %s", P.cgroups[i], strerror(errno));
}

/* init, itself: every group but the cgroup2 one the program child is created in (fork_program). */
static void join_cgroups(void) {
    for (size_t i = 0; i < P.ncgroups; i++) {
        if (into_cgroup_fd >= 0 && i == into_cgroup_index) continue;
        join_by_write(i);
        close(P.cgroup_fds[i]);
    }
}

/* ---------- step 6: the program child ---------- */

static void append_fd(char *buf, size_t cap, int fd, const char *suffix) {
    size_t len = strlen(buf);
    int n = snprintf(buf + len, cap - len, "%s%d%s", len && buf[len - 1] != '=' ? "," : "", fd, suffix);
    if (n < 0 || (size_t)n >= cap - len) {
        buf[len] = 0;           /* the list no longer fits the line: report it as incomplete */
        inventory_complete = 0;
    }
}

static void seal_descriptors(void) {
    char kept[900] = "kept=", sealed[1800] = "sealed=", residual[900] = "residual="; /* fits one 4 KiB line */
    int failures = 0;
    for (size_t i = 0; i < ninherited; i++) {
        int fd = inherited[i];
        if (fd == plan_fd || fd == status_fd) continue; /* the channel itself (fd: mode), already close-on-exec */
        if (is_kept(fd)) {
            if (fcntl(fd, F_SETFD, 0) < 0) { char e[16]; snprintf(e, sizeof e, "/%d", errno); append_fd(residual, sizeof residual, fd, e); failures++; }
            else append_fd(kept, sizeof kept, fd, "");
        } else if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
            char e[16];
            snprintf(e, sizeof e, "/%d", errno);
            append_fd(residual, sizeof residual, fd, e);
            failures++;
        } else {
            append_fd(sealed, sizeof sealed, fd, "");
        }
    }
    /* Belt and braces: anything above stdio not kept is close-on-exec, whatever the inventory saw. */
    if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) {
        for (size_t i = 0; i < P.nkeep; i++)
            if (P.keep[i] >= 3) fcntl(P.keep[i], F_SETFD, 0);
    }
    line(report_fd, "fds:%s;%s;%s;complete=%d", kept, sealed, residual, inventory_complete);
    if (failures) refuse("fd_seal", "%d inherited descriptors could not be sealed", failures);
}

/* The decisions handshake (see decisions.c): child -> init "fd number", init -> child 'y'/'n', then 'g'. */
static int dec_c2i[2] = {-1, -1}, dec_i2c[2] = {-1, -1};

/* Program child: agrees with init whether the program's filter answers denials through a listener. Returns
 * the descriptor number the listener will get, or -1 (the filter then answers EPERM itself, unrecorded). */
static int offer_listener(void) {
    if (!P.has_decisions || dec_c2i[1] < 0) return -1;
    int next = fcntl(report_fd, F_DUPFD_CLOEXEC, 3); /* the lowest free number: what seccomp(2) will return */
    if (next < 0) return -1;
    close(next);
    char msg[16], ok = 'n';
    int n = snprintf(msg, sizeof msg, "%d\n", next);
    if (write(dec_c2i[1], msg, (size_t)n) != n || read(dec_i2c[0], &ok, 1) != 1 || ok != 'y') return -1;
    decisions_patch(&P.filters[P.decision_filter]);
    P.filters[P.decision_filter].flags |= SECCOMP_FILTER_FLAG_NEW_LISTENER;
    return next;
}

static char pty_slave[64];
static int pty_master = -1, pty_slave_fd = -1;

/* Everything is installed but the filters (which the canary child adds itself): test it, before execve.
 * A kind that was not denied refuses the launch, so the program never runs inside a boundary that failed. */
static void test_boundary(void) {
    int ran;
    uint32_t denied = canary_run(&P.canary, P.filters, P.nfilters, getppid(), &ran);
    if (!ran) {
        line(report_fd, "canary-unavailable:the canary child could not run");
        return;
    }
    line(report_fd, "canary:%u:%u", P.canary.kinds, denied);
    uint32_t open_kinds = P.canary.kinds & ~denied;
    if (open_kinds) {
        char names[128];
        canary_names(open_kinds, names, sizeof names);
        refuse("canary_not_denied", "%s: the boundary let the canary through", names);
    }
}

static void program_child(int authority_w) {
    (void)authority_w; /* close-on-exec: its end of file tells init that execve happened */
    sigset_t none;
    sigemptyset(&none);
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_DFL);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* Never the caller's session: no job control over it, no controlling terminal to inject keystrokes into. */
    if (setsid() < 0) refuse("internal", "setsid: %s", strerror(errno));
    if (pty_slave[0]) pty_attach(pty_slave);

    seal_descriptors();
    if (P.cwd && chdir(P.cwd) < 0) refuse("chdir", "%s: %s", P.cwd, strerror(errno));
    for (size_t i = 0; i < P.nrl; i++) {
        struct rlimit rl = {(rlim_t)P.rlimits[i].soft, (rlim_t)P.rlimits[i].hard};
        if (setrlimit((int)P.rlimits[i].res, &rl) < 0)
            refuse("setrlimit", "resource %u soft=%llu hard=%llu: %s", P.rlimits[i].res,
                   (unsigned long long)P.rlimits[i].soft, (unsigned long long)P.rlimits[i].hard, strerror(errno));
    }
    if (P.nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) refuse("no_new_privs", "%s", strerror(errno));
    if (ruleset_fd >= 0) {
        if (syscall(SYS_landlock_restrict_self, ruleset_fd, 0) < 0)
            refuse("landlock_restrict", "%s", strerror(errno));
        close(ruleset_fd);
    }
    if (P.drop_caps) drop_capabilities();
    if (P.canary.kinds) test_boundary();
    /* Reported before seccomp, so the filter never has to allow this write. */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    line(report_fd, "stages:start=%ld,plan=%ld,namespaces=%ld,init=%ld,landlock=%ld,cgroups=%ld,preexec=%ld",
         abs_ns(&t_start), abs_ns(&t_plan), abs_ns(&t_namespaces), abs_ns(&t_init), abs_ns(&t_landlock),
         abs_ns(&t_cgroups), abs_ns(&now));
    line(report_fd, "preexec:%ld:%ld", ns_between(&t_start, &now), ns_between(&t_plan, &now));
    int listener = offer_listener();
    /* A task has one notification listener: with the decision filter's, the trap joins that filter; without, it is
     * a filter of its own, the first, so a plan filter's denial takes precedence over it. */
    if (P.inject && listener >= 0 && inject_merge(&P.filters[P.decision_filter]) < 0)
        refuse("seccomp", "LOOPBACK_INJECT: the decision filter cannot take the connect trap");
    if (P.inject && listener < 0) inject_install(relay_sock);
    for (size_t i = 0; i < P.nfilters; i++) {
        struct sock_fprog prog = {P.filters[i].len, P.filters[i].insns};
        long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, P.filters[i].flags, &prog);
        if (r < 0)
            refuse("seccomp", "filter %zu: %u instructions, flags 0x%x: %s", i + 1, P.filters[i].len,
                   P.filters[i].flags, strerror(errno));
        /* Init takes the listener by this number; any other would leave denials unanswered. Nothing can be
         * written from here on without the filter's leave, so only the exit status says so (121: refused). */
        if (listener >= 0 && (P.filters[i].flags & SECCOMP_FILTER_FLAG_NEW_LISTENER) && r != listener) _exit(121);
    }
    if (listener >= 0) {
        char go;
        if (read(dec_i2c[0], &go, 1) < 0) { /* init has taken the listener, or given up: exec either way */ }
    }
    execve(P.program, P.argv, P.envp);
    int err = errno;
    line(report_fd, "exec-failed:%d", err);
    _exit(err == ENOENT ? 127 : 126);
}

static long clone_program(int with_pid, int into_cgroup) {
    pid_t want = (pid_t)P.program_pid;
    struct clone_args_v2 ca = {.exit_signal = SIGCHLD};
    if (with_pid) {
        ca.set_tid = (uint64_t)(uintptr_t)&want;
        ca.set_tid_size = 1;
    }
    if (into_cgroup) {
        ca.flags = AASM_CLONE_INTO_CGROUP;
        ca.cgroup = (uint64_t)into_cgroup_fd;
    }
    return syscall(SYS_clone3, &ca, sizeof ca);
}

/* fork(), or clone3: with the pid the plan asked for in the new pid namespace (so that concurrent launches sharing
 * a folder do not all run as pid 2), and created in the cgroup2 group to join. The pid is a wish (taken, above
 * pid_max: an ordinary pid will do); the group is not: where the kernel cannot create a process in it, init joins
 * it by writing (and refuses when that fails too). The child only calls async-signal-safe code before execve. */
static pid_t fork_program(void) {
    int into = into_cgroup_fd >= 0;
    if (into) {
        long r = clone_program(P.program_pid != 0, 1);
        if (r < 0 && P.program_pid) r = clone_program(0, 1);
        if (r >= 0) return (pid_t)r;
        join_by_write(into_cgroup_index); /* before Linux 5.7, or a group that refuses a created process */
    }
    if (P.program_pid) {
        long r = clone_program(1, 0);
        if (r >= 0) return (pid_t)r;
    }
    return fork();
}

/* ---------- init: pid 1 of the namespace, or a sub-reaper ---------- */

static void kill_walk(pid_t pid) {
    /* Without a pid namespace: SIGKILL every descendant, parents first so they stop forking. */
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", pid, pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return;
    buf[n] = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
        pid_t child = (pid_t)atoi(tok);
        if (child <= 0) continue;
        kill(child, SIGKILL);
        kill_walk(child);
    }
}

static void kill_tree_and_reap(void) {
    int st;
    for (;;) {
        if (P.ns & NS_PID) kill(-1, SIGKILL); else kill_walk(getpid());
        if (waitpid(-1, &st, 0) < 0 && errno == ECHILD) return;
    }
}

static int signalfd_for(int with_chld, int with_winch) {
    sigset_t set;
    sigemptyset(&set);
    if (with_chld) sigaddset(&set, SIGCHLD);
    if (with_winch) sigaddset(&set, SIGWINCH);
    for (int s = 1; s < 32; s++)
        if (P.has_signals && (P.sig_mask & (1ULL << s))) sigaddset(&set, s);
    return signalfd(-1, &set, SFD_CLOEXEC);
}

static void noop(int s) { (void)s; }

/* The program's own status right after its execve: what it holds, not what was planned. */
static void report_authority(int report_w, pid_t child) {
    char buf[512];
    if (proc_fd >= 0 && read_authority(proc_fd, child, buf, sizeof buf) == 0) line(report_w, "authority:%s", buf);
    else line(report_w, "authority-unavailable:%s", proc_fd < 0 ? "no procfs" : strerror(errno));
}

/* Init's side of the decisions handshake: the child offered the listener's number; take it if init may. */
static int take_listener(int offer_r, pid_t child, int report_w, int *decided) {
    char msg[16] = {0};
    ssize_t n = read(offer_r, msg, sizeof msg - 1);
    if (n <= 0) return -1; /* the child went away before offering (a refusal, say) */
    int pidfd = decisions_open(child);
    char answer = pidfd >= 0 ? 'y' : 'n';
    if (write(dec_i2c[1], &answer, 1) != 1 || pidfd < 0) {
        if (pidfd >= 0) close(pidfd);
        line(report_w, "decisions-unavailable:%s", pidfd < 0 ? "init may not take descriptors from the program"
                                                             : "the program child went away");
        close(dec_i2c[1]);
        return -1;
    }
    int fd = decisions_take(pidfd, atoi(msg));
    close(pidfd);
    char go = 'g';
    if (write(dec_i2c[1], &go, 1) < 0) { /* the child is gone: nothing to record */ }
    close(dec_i2c[1]);
    if (fd < 0) {
        line(report_w, "decisions-unavailable:the listener could not be taken (%s)", strerror(errno));
        return -1;
    }
    *decided = 1;
    return fd;
}

static void init_main(int exec_w, int report_w, int lifeline_r) {
    if (pty_master >= 0) { close(pty_master); close(pty_slave_fd); } /* the relay is the launcher's */
    if (P.ns & NS_PID) {
        /* kill(-1) below is only safe as pid 1 of our own namespace; never risk it anywhere else. */
        if (getpid() != 1) refuse("internal", "init is pid %d, not 1, despite a new pid namespace", getpid());
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        proc_fd = view_mount_proc(P.mount_proc);
        if (P.nview) view_detach_old_root();
    } else {
        prctl(PR_SET_CHILD_SUBREAPER, 1);
    }
    clock_gettime(CLOCK_MONOTONIC, &t_init);
    build_ruleset();
    clock_gettime(CLOCK_MONOTONIC, &t_landlock);
    join_cgroups();                            /* step 4: only once nothing can refuse any more */
    clock_gettime(CLOCK_MONOTONIC, &t_cgroups);
    int ap[2];
    if (pipe2(ap, O_CLOEXEC) < 0) refuse("internal", "pipe: %s", strerror(errno));
    if (P.has_decisions && (pipe2(dec_c2i, O_CLOEXEC) < 0 || pipe2(dec_i2c, O_CLOEXEC) < 0))
        refuse("internal", "pipe: %s", strerror(errno));
    pid_t child = fork_program();
    if (child < 0) refuse("fork", "program child: %s", strerror(errno));
    if (into_cgroup_fd >= 0) {
        close(into_cgroup_fd);
        close(P.cgroup_fds[into_cgroup_index]);
    }
    if (child == 0) {
        close(ap[0]);
        close(report_w);
        close(lifeline_r);
        if (P.has_decisions) { close(dec_c2i[0]); close(dec_i2c[1]); }
        program_child(ap[1]);
    }
    close(ap[1]);
    int offer_r = -1, listener = -1, decided = 0;
    if (P.has_decisions) { close(dec_c2i[1]); close(dec_i2c[0]); offer_r = dec_c2i[0]; }
    close(exec_w);
    if (ruleset_fd >= 0) close(ruleset_fd);

    int sfd = signalfd_for(1, 0);
    int status = 0, done = 0, authority_r = ap[0], relay_decides = 0;
    while (!done) {
        struct pollfd pf[6] = {{sfd, POLLIN, 0}, {lifeline_r, POLLIN, 0},
                                                              {authority_r, POLLIN, 0}, {offer_r, POLLIN, 0},
                                                              {listener, POLLIN, 0},
                                                              {relay_decides ? relay_sock : -1, POLLIN, 0}};
        if (poll(pf, 6, -1) < 0) continue;
        /* Denials first: the program is blocked in its call until it is answered. */
        if (pf[4].revents & POLLIN) {
            if (decisions_serve(listener) < 0) { close(listener); listener = -1; }
        } else if (pf[4].revents) {
            close(listener); /* POLLHUP: nothing uses the filter any more */
            listener = -1;
        }
        if (pf[5].revents) decisions_intake(relay_sock); /* the denials the relay answered */
        if (pf[3].revents) {
            listener = take_listener(offer_r, child, report_w, &decided);
            /* With LOOPBACK_INJECT the relay receives every notification (inject_share): init only records. */
            if (listener >= 0 && P.inject && inject_share(relay_sock, listener)) {
                close(listener);
                listener = -1;
                relay_decides = 1;
            }
            close(offer_r);
            offer_r = -1;
        }
        /* Before any reaping: the program (even a zombie) still shows what it held after execve. */
        if (pf[2].revents) {
            report_authority(report_w, child);
            close(authority_r);
            authority_r = -1;
        }
        if (pf[1].revents) {
            char c;
            if (read(lifeline_r, &c, 1) <= 0) { kill_tree_and_reap(); _exit(EXIT_LIFELINE); }
        }
        if (!(pf[0].revents & POLLIN)) continue;
        struct signalfd_siginfo si;
        if (read(sfd, &si, sizeof si) != sizeof si) continue;
        if ((int)si.ssi_signo == SIGCHLD) {
            int st;
            pid_t p;
            if (authority_r >= 0) { /* the program exited: its end of the pipe closed first, read before reaping */
                report_authority(report_w, child);
                close(authority_r);
                authority_r = -1;
            }
            while ((p = waitpid(-1, &st, WNOHANG)) > 0)
                if (p == child) { status = st; done = 1; clock_gettime(CLOCK_MONOTONIC, &t_exited); }
        } else if (P.sig_target == SIG_TARGET_PROGRAM) {
            kill(child, (int)si.ssi_signo);
        } else if (P.sig_target == SIG_TARGET_GROUP) {
            kill(-child, (int)si.ssi_signo);
        } else {
            kill(-1, (int)si.ssi_signo); /* ALL: only valid with a pid namespace (validated) */
        }
    }
    /* Connections made just before the program ended: the relay takes them when init's end of its socket closes. */
    /* Whatever else of the tree is still blocked in a denied call is answered, then killed with the rest. */
    while (listener >= 0) {
        struct pollfd lp = {listener, POLLIN, 0};
        if (poll(&lp, 1, 0) <= 0 || !(lp.revents & POLLIN) || decisions_serve(listener) < 0) break;
    }
    kill_tree_and_reap();
    struct timespec reaped;
    clock_gettime(CLOCK_MONOTONIC, &reaped);
    line(report_w, "ended:exited=%ld,reaped=%ld", abs_ns(&t_exited), abs_ns(&reaped));
    if (listener >= 0) close(listener);
    /* The relay sends a denial's record before it answers it, so every denial the tree saw is waiting here. */
    if (relay_decides) decisions_intake(relay_sock);
    if (decided) decisions_report(report_w);
    if (WIFSIGNALED(status)) line(report_w, "exit:signal:%d", WTERMSIG(status));
    else line(report_w, "exit:code:%d", WEXITSTATUS(status));
    _exit(0);
}

/* ---------- the launcher's own loop: relay, forward, lifeline ---------- */

enum start_state { START_UNKNOWN, START_OK, START_REFUSED, START_EXEC_FAILED };

struct linebuf { char buf[8192]; size_t len; };

/* Reads what is available; calls fn for each complete line. Returns 0 at end of file. */
static int pump(int fd, struct linebuf *lb, void (*fn)(char *)) {
    ssize_t n = read(fd, lb->buf + lb->len, sizeof lb->buf - lb->len - 1);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 1;
    if (n <= 0) return 0;
    lb->len += (size_t)n;
    char *start = lb->buf, *nl;
    while ((nl = memchr(start, '\n', lb->len - (size_t)(start - lb->buf))) != NULL) {
        *nl = 0;
        fn(start);
        start = nl + 1;
    }
    lb->len -= (size_t)(start - lb->buf);
    memmove(lb->buf, start, lb->len);
    if (lb->len == sizeof lb->buf - 1) lb->len = 0; /* an over-long line: drop it */
    return 1;
}

static enum start_state start_state = START_UNKNOWN;
static int exec_errno;
static long setup_ns = -1, install_ns = -1;
static char final_line[256];

static void on_exec_line(char *l) {
    if (strncmp(l, "preexec:", 8) == 0) {
        char *colon = strchr(l + 8, ':');
        setup_ns = atol(l + 8);
        install_ns = colon ? atol(colon + 1) : -1;
        return;
    }
    if (strncmp(l, "refused:", 8) == 0) start_state = START_REFUSED;
    else if (strncmp(l, "exec-failed:", 12) == 0) { start_state = START_EXEC_FAILED; exec_errno = atoi(l + 12); }
    line(status_fd, "%s", l);
}

static void on_report_line(char *l) {
    /* Passed on as soon as init has them; the exit (or error) line is the launcher's own last word. */
    if (strncmp(l, "authority", 9) == 0 || strncmp(l, "decision", 8) == 0 || strncmp(l, "ended:", 6) == 0)
        line(status_fd, "%s", l);
    else snprintf(final_line, sizeof final_line, "%s", l);
}

/* The terminal relay's buffers: caller's stdin -> master, master -> caller's terminal. */
struct ttybuf { char buf[16384]; size_t len, off; };
static struct ttybuf to_pty, from_pty;
static int pty_in_open = 1, pty_out_fd = -1;

/* Moves what is ready; returns 0 once the program side of the terminal is gone (EIO) and drained. */
static int pty_pump(struct pollfd *in, struct pollfd *master, struct pollfd *out) {
    if (in->revents && to_pty.len == 0) {
        ssize_t n = read(0, to_pty.buf, sizeof to_pty.buf);
        if (n > 0) { to_pty.len = (size_t)n; to_pty.off = 0; }
        else if (n == 0 || (errno != EINTR && errno != EAGAIN)) pty_in_open = 0;
    }
    if (to_pty.len) {
        ssize_t n = write(pty_master, to_pty.buf + to_pty.off, to_pty.len);
        if (n > 0) { to_pty.off += (size_t)n; to_pty.len -= (size_t)n; }
        else if (n < 0 && errno != EAGAIN && errno != EINTR) to_pty.len = 0;
    }
    if ((master->revents & (POLLIN | POLLHUP | POLLERR)) && from_pty.len == 0) {
        ssize_t n = read(pty_master, from_pty.buf, sizeof from_pty.buf);
        if (n > 0) { from_pty.len = (size_t)n; from_pty.off = 0; }
        else if (n == 0 || (errno != EAGAIN && errno != EINTR)) return 0;
    }
    if (from_pty.len && (out->revents || out->fd < 0)) {
        ssize_t n = pty_out_fd < 0 ? (ssize_t)from_pty.len : write(pty_out_fd, from_pty.buf + from_pty.off, from_pty.len);
        if (n > 0) { from_pty.off += (size_t)n; from_pty.len -= (size_t)n; }
        else if (n < 0 && errno != EAGAIN && errno != EINTR) from_pty.len = 0;
    }
    return 1;
}

/* After the tree is gone: whatever the program wrote last still reaches the caller. */
static void pty_drain(void) {
    for (int i = 0; i < 4096 && pty_master >= 0; i++) {
        if (from_pty.len == 0) {
            ssize_t n = read(pty_master, from_pty.buf, sizeof from_pty.buf);
            if (n <= 0) break;
            from_pty.len = (size_t)n;
            from_pty.off = 0;
        }
        ssize_t n = pty_out_fd < 0 ? (ssize_t)from_pty.len : write(pty_out_fd, from_pty.buf + from_pty.off, from_pty.len);
        if (n <= 0) break;
        from_pty.off += (size_t)n;
        from_pty.len -= (size_t)n;
    }
    pty_restore();
}

static int outer_main(pid_t init, int exec_r, int report_r, int lifeline_w) {
    int sfd = signalfd_for(0, pty_master >= 0);
    struct linebuf eb = {.len = 0}, rb = {.len = 0};
    int exec_open = 1, report_open = 1, lifeline_open = lifeline_capable, pty_open_ = pty_master >= 0;
    pty_out_fd = pty_output_fd();
    while (report_open || exec_open) {
        struct pollfd pf[7] = {{exec_open ? exec_r : -1, POLLIN, 0}, {report_open && !exec_open ? report_r : -1, POLLIN, 0},
                               {sfd, POLLIN, 0}, {lifeline_open ? plan_fd : -1, POLLIN, 0},
                               {pty_open_ && pty_in_open && to_pty.len == 0 ? 0 : -1, POLLIN, 0},
                               {pty_open_ ? pty_master : -1, (short)((from_pty.len ? 0 : POLLIN) | (to_pty.len ? POLLOUT : 0)), 0},
                               {pty_open_ && from_pty.len && pty_out_fd >= 0 ? pty_out_fd : -1, POLLOUT, 0}};
        if (poll(pf, 7, -1) < 0) continue;
        if (pty_open_ && !pty_pump(&pf[4], &pf[5], &pf[6])) pty_open_ = 0;
        if (pf[0].revents && !pump(exec_r, &eb, on_exec_line)) {
            exec_open = 0;
            if (start_state == START_UNKNOWN && setup_ns >= 0) {
                start_state = START_OK;
                line(status_fd, "started:%ld:%ld", setup_ns, install_ns);
            } else if (start_state == START_UNKNOWN) {
                start_state = START_REFUSED;
                line(status_fd, "refused:internal:setup ended without a report");
            }
        }
        if (pf[1].revents && !pump(report_r, &rb, on_report_line)) report_open = 0;
        if (pf[2].revents & POLLIN) {
            struct signalfd_siginfo si;
            if (read(sfd, &si, sizeof si) == sizeof si) {
                if ((int)si.ssi_signo == SIGWINCH) { if (pty_master >= 0) pty_resize(pty_master); }
                else kill(init, (int)si.ssi_signo);
            }
        }
        if (pf[3].revents) {
            char junk[256];
            ssize_t n = read(plan_fd, junk, sizeof junk);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                /* The supervisor is gone: end the whole tree. */
                if (P.ns & NS_PID) kill(init, SIGKILL);
                close(lifeline_w);
                int st;
                waitpid(init, &st, 0);
                stop_relay(1);
                if (!(P.ns & NS_PID)) kill_tree_and_reap();
                pty_restore();
                return EXIT_LIFELINE;
            }
        }
    }
    int st;
    while (waitpid(init, &st, 0) < 0 && errno == EINTR) {}
    pty_drain();
    stop_relay(0);
    if (!(P.ns & NS_PID)) kill_tree_and_reap(); /* orphans that reached us if init died abnormally */
    switch (start_state) {
    case START_REFUSED: return EXIT_REFUSED;
    case START_EXEC_FAILED: return exec_errno == ENOENT ? 127 : 126;
    default: break;
    }
    if (strncmp(final_line, "exit:code:", 10) == 0) {
        line(status_fd, "%s", final_line);
        return atoi(final_line + 10);
    }
    if (strncmp(final_line, "exit:signal:", 12) == 0) {
        line(status_fd, "%s", final_line);
        return 128 + atoi(final_line + 12);
    }
    line(status_fd, "error:init_died:wait status 0x%x", st);
    return EXIT_LAUNCHER_ERROR;
}

extern char **environ;
static int launch(const char *spec);

int main(int argc, char **argv) {
    /* Executed from a sealed memory file, the kernel would name us after the descriptor: keep a stable name,
     * by which the resident kernel recognises a caller inside a boundary (an ancestor named aasm-launch). */
    prctl(PR_SET_NAME, "aasm-launch", 0, 0, 0);
    /* The launcher's own environment is never passed on; wipe it so no copy of it lingers. */
    for (char **e = environ; e && *e; e++) memset(*e, 0, strlen(*e));
    signal(SIGPIPE, SIG_IGN);
    if ((argc == 3 || (argc == 4 && strcmp(argv[3], "no-spare") == 0)) && strcmp(argv[1], "serve") == 0)
        return zygote_serve(argv[2], argc == 3, launch);
    if (argc != 2)
        refuse("channel", "usage: aasm-launch unix:<socket> | fd:<read>,<write> | serve unix:<socket> [no-spare]");
    return launch(argv[1]);
}

/* One launch, from the inventory of what was inherited to the program's end: run by a fresh launcher, or by a
 * child the zygote forked (which starts here with only the request's stdio open, like a fresh exec, and, when
 * the plan came with the request, its channel as fd 3 with the whole plan already in it: `fd:3,3`). */
static int launch(const char *spec) {
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    take_inventory();
    open_channel(spec);

    uint32_t len;
    unsigned char *body = read_message(&len);
    clock_gettime(CLOCK_MONOTONIC, &t_plan);
    parse_plan(body, len, &P);                 /* step 1: validate everything */
    for (size_t i = 0; i < P.nkeep; i++)
        if (!is_inherited(P.keep[i]) || P.keep[i] == plan_fd || P.keep[i] == status_fd)
            refuse("fd_missing", "descriptor %d to keep was not inherited", P.keep[i]);

    open_before_namespaces();                  /* step 2 */
    /* The relay must stay in the host's network namespace: fork it before the unshare. */
    /* the relay's copy of the rule, before it forks; and whether init's pid namespace is below the relay's */
    if (P.inject) inject_ports(P.relay_ports, P.nrelay, (P.ns & NS_PID) ? 1 : 0);
    if (P.nrelay || P.nrelay_udp || P.has_proxy)
        relay_pid = relay_start(&relay_sock, P.has_proxy ? P.proxy_path : NULL, P.proxy_preamble, P.proxy_preamble_len);
    enter_namespaces();                        /* step 3 */
    clock_gettime(CLOCK_MONOTONIC, &t_namespaces);
    /* The relay accepts on these itself (relay.c): init never holds them. */
    if (P.nrelay) relay_listen(relay_sock, P.relay_ports, P.nrelay, RELAY_KIND_LOOPBACK);
    if (P.has_proxy) relay_listen(relay_sock, &P.proxy_port, 1, RELAY_KIND_PROXY);
    if (P.nrelay_udp) relay_udp(relay_sock, P.relay_udp_ports, P.nrelay_udp);
    if (!(P.ns & NS_PID)) prctl(PR_SET_CHILD_SUBREAPER, 1);
    /* The working directory must exist where the program will run (the view, when there is one). */
    if (P.cwd) {
        int fd = open_resolved(AT_FDCWD, P.cwd, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
        if (fd < 0) refuse(errno == ENOENT || errno == ENOTDIR ? "missing_path" : "path_access", "%s: %s", P.cwd,
                           strerror(errno));
        close(fd);
    }
    if (P.terminal) pty_master = pty_open(pty_slave, sizeof pty_slave);
    /* Held until the end, so the master never reads EIO before the program has opened its side. */
    if (pty_master >= 0 && (pty_slave_fd = open(pty_slave, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
        refuse("terminal", "open %s: %s", pty_slave, strerror(errno));

    /* Forwarded signals are queued from here on and read through signalfds; handlers keep pid 1 signallable. */
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    for (int s = 1; s < 32; s++)
        if (P.has_signals && (P.sig_mask & (1ULL << s))) { sigaddset(&block, s); signal(s, noop); }
    if (pty_master >= 0) sigaddset(&block, SIGWINCH);
    sigprocmask(SIG_BLOCK, &block, NULL);

    /* The launcher and init stay outside the boundary, next to the program: make them non-dumpable so the
     * program (same uid) can neither ptrace them nor read their /proc files; the program's execve resets it.
     * Not earlier: a non-dumpable process cannot write its own uid_map/gid_map when unprivileged. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    int ep[2], rp[2], lp[2];
    if (pipe2(ep, O_CLOEXEC) < 0 || pipe2(rp, O_CLOEXEC) < 0 || pipe2(lp, O_CLOEXEC) < 0)
        refuse("internal", "pipe: %s", strerror(errno));
    pid_t init = fork();                       /* step 5 */
    if (init < 0) refuse("fork", "init: %s", strerror(errno));
    if (init == 0) {
        close(ep[0]);
        close(rp[0]);
        close(lp[1]);
        if (status_fd != plan_fd) close(status_fd);
        close(plan_fd);
        report_fd = ep[1];
        init_main(ep[1], rp[1], lp[0]);
    }
    close(ep[1]);
    close(rp[1]);
    close(lp[0]);
    for (size_t i = 0; i < P.ncgroups; i++) close(P.cgroup_fds[i]); /* init joins them */
    if (into_cgroup_fd >= 0) close(into_cgroup_fd);
    /* Only init talks to the relay from here on: when init ends, the relay sees end of file. */
    if (relay_sock >= 0) close(relay_sock);
    return outer_main(init, ep[0], rp[0], lp[1]);
}
