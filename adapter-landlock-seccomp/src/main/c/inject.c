/*
 * Granted loopback ports without a relay hop (LOOPBACK_INJECT, PROTOCOL.md "Injection").
 *
 * The program child installs, before the plan's own filters, a filter that turns every connect(2) into a
 * notification and hands the listener to the relay (which lives in the host's network namespace). For each
 * notification the relay takes a copy of the program's socket (pidfd_getfd), reads the address from the
 * program's memory, re-validates the notification, and when the socket is a fresh TCP stream socket of
 * AF_INET/AF_INET6 and the address is 127.0.0.1 or ::1 on a granted port, connects a socket of its own (the
 * host's namespace) to the address it read and puts it on the program's descriptor number
 * (SECCOMP_IOCTL_NOTIF_ADDFD with SETFD), then answers the connect. From then on no process of ours is in the
 * byte path.
 *
 * Every other connect is answered SECCOMP_USER_NOTIF_FLAG_CONTINUE, on a socket of the program's own namespace
 * only: the kernel then performs the call exactly as it would have without the trap (same Landlock rules, same
 * namespace, where the granted ports still have init's relay listeners), so nothing is allowed on what was read
 * from the program's memory. A socket of the host's namespace (one this relay injected) never gets CONTINUE: its
 * connects are answered here, and connect(AF_UNSPEC), which would disconnect it and free it for another
 * destination, is refused with EPERM. For the same reason the filter denies MSG_FASTOPEN on sendto/sendmsg/
 * sendmmsg (a connect hidden in a send).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "inject.h"
#include "plan.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif
#ifndef SECCOMP_IOCTL_NOTIF_ADDFD
#error "SECCOMP_IOCTL_NOTIF_ADDFD is needed (linux headers 5.9+)"
#endif

/* A blocking program socket: how long the relay waits for the host's handshake (loopback answers at once unless
 * the listener's backlog is full). */
#define INJECT_CONNECT_MS 1000

static uint16_t granted[PLAN_MAX_RELAY_PORTS];
static size_t ngranted;
static unsigned long long host_cookie;
static int pid_level;

void inject_ports(const uint16_t *ports, size_t n, int init_pid_level) {
    ngranted = n < PLAN_MAX_RELAY_PORTS ? n : PLAN_MAX_RELAY_PORTS;
    memcpy(granted, ports, ngranted * sizeof *granted);
    pid_level = init_pid_level;
}

#define LD_ABS(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i)) /* little-endian: the low word first */

/* The trap: connect notifies, a send that would connect (MSG_FASTOPEN) is denied, everything else is left to the
 * plan's own filters. Its jumps are relative and self-contained, so it is also appended to a decision filter. */
static const struct sock_filter trap[] = {
    LD_ABS(offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 13), /* other ABIs: the plan's filters decide */
    LD_ABS(offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_connect, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sendto, 0, 2),
    LD_ABS(ARG_LO(3)),
    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MSG_FASTOPEN, 6, 7),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sendmsg, 0, 2),
    LD_ABS(ARG_LO(2)),
    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MSG_FASTOPEN, 3, 4),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sendmmsg, 0, 3),
    LD_ABS(ARG_LO(3)),
    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MSG_FASTOPEN, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};
#define TRAP_LEN (sizeof trap / sizeof trap[0])

/* Appended for the decision filter's denials (already turned into notifications by decisions_patch): a denied
 * connect is answered EPERM by the kernel itself, so every connect notification on the listener is a trap. */
static const struct sock_filter denial[] = {
    LD_ABS(offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 2),
    LD_ABS(offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_connect, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
};
#define DENIAL_LEN (sizeof denial / sizeof denial[0])

int inject_merge(struct filter *f) {
    size_t len = f->len, total = len + DENIAL_LEN + TRAP_LEN;
    if (total > 4096) return -1;
    struct sock_filter *m = malloc(total * sizeof *m);
    if (!m) return -1;
    memcpy(m, f->insns, len * sizeof *m);
    memcpy(m + len, denial, sizeof denial);
    memcpy(m + len + DENIAL_LEN, trap, sizeof trap);
    for (size_t i = 0; i < len; i++) {
        if (m[i].code == (BPF_RET | BPF_A)) { free(m); return -1; } /* an answer computed at run time: not ours */
        if (m[i].code != (BPF_RET | BPF_K)) continue;
        size_t to;
        if (m[i].k == SECCOMP_RET_USER_NOTIF) to = len;
        else if (m[i].k == SECCOMP_RET_ALLOW) to = len + DENIAL_LEN;
        else continue;
        m[i] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, (__u32)(to - i - 1));
    }
    f->insns = m;
    f->len = (unsigned short)total;
    return 0;
}

void inject_install(int relay_sock) {
    struct sock_fprog prog = {TRAP_LEN, (struct sock_filter *)trap};
    long l = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    if (l < 0) refuse("seccomp", "LOOPBACK_INJECT connect trap: %s", strerror(errno));
    int listener = (int)l;
    unsigned char msg[4] = {0, 0, 0, 'N'};
    char cbuf[CMSG_SPACE(sizeof(int))];
    memset(cbuf, 0, sizeof cbuf);
    struct iovec iov = {msg, sizeof msg};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cm), &listener, sizeof listener);
    /* Without the relay every connect would wait for an answer nobody gives: refuse rather than run so. */
    if (relay_sock < 0 || sendmsg(relay_sock, &mh, MSG_NOSIGNAL) != (ssize_t)sizeof msg)
        refuse("relay", "LOOPBACK_INJECT: the listener could not be handed to the relay: %s", strerror(errno));
    close(listener);
}

static int send_with(int sock, const void *msg, size_t len, int fd) {
    char cbuf[CMSG_SPACE(sizeof(int))];
    memset(cbuf, 0, sizeof cbuf);
    struct iovec iov = {(void *)msg, len};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        mh.msg_control = cbuf;
        mh.msg_controllen = sizeof cbuf;
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &fd, sizeof fd);
    }
    return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

/* Why the relay receives, not init: a trapped connect waited for two wake-ups (init's, then the relay's, with a
 * pidfd passed between them); now it waits for the relay's alone. Denials are rare, and their answer (EPERM) needs
 * nothing the relay lacks; only their record is init's. */
int inject_share(int relay_sock, int listener) {
    unsigned char msg[4] = {0, 0, 0, 'M'};
    return relay_sock >= 0 && send_with(relay_sock, msg, sizeof msg, listener) == 0;
}

static int is_granted(uint16_t port) {
    for (size_t i = 0; i < ngranted; i++)
        if (granted[i] == port) return 1;
    return 0;
}

static int opt(int s, int level, int name) {
    int v = 0;
    socklen_t l = sizeof v;
    return getsockopt(s, level, name, &v, &l) < 0 ? -1 : v;
}

static unsigned long long cookie(int s) {
    unsigned long long c = 0;
    socklen_t l = sizeof c;
    return getsockopt(s, SOL_SOCKET, SO_NETNS_COOKIE, &c, &l) < 0 ? 0 : c;
}

static int tcp_state(int s) {
    struct tcp_info ti;
    socklen_t l = sizeof ti;
    return getsockopt(s, IPPROTO_TCP, TCP_INFO, &ti, &l) < 0 ? -1 : ti.tcpi_state;
}

/* A socket we may replace: TCP stream of AF_INET/AF_INET6, never connected, not connecting, not listening, not
 * bound to an address or port, no device binding, no Fast Open on connect. Anything else keeps its own socket. */
static int replaceable(int s, int *family) {
    *family = opt(s, SOL_SOCKET, SO_DOMAIN);
    if ((*family != AF_INET && *family != AF_INET6) || opt(s, SOL_SOCKET, SO_TYPE) != SOCK_STREAM
        || opt(s, SOL_SOCKET, SO_PROTOCOL) != IPPROTO_TCP || opt(s, SOL_SOCKET, SO_ACCEPTCONN) != 0
        || tcp_state(s) != TCP_CLOSE || opt(s, IPPROTO_TCP, TCP_FASTOPEN_CONNECT) != 0)
        return 0;
    struct sockaddr_storage a;
    socklen_t al = sizeof a;
    if (getsockname(s, (struct sockaddr *)&a, &al) < 0) return 0;
    if (a.ss_family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)&a;
        if (in->sin_port || in->sin_addr.s_addr != htonl(INADDR_ANY)) return 0;
    } else {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a;
        if (in6->sin6_port || !IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr)) return 0;
    }
    char dev[64];
    socklen_t dl = sizeof dev;
    if (getsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, dev, &dl) < 0 || dl > 0) return 0;
    return 1;
}

/* The options copied from the program's socket (PROTOCOL.md "Injection" lists them and what is not copied). */
static void copy_options(int from, int to) {
    static const int ints[][2] = {{SOL_SOCKET, SO_KEEPALIVE}, {SOL_SOCKET, SO_REUSEADDR}, {SOL_SOCKET, SO_OOBINLINE},
                                  {IPPROTO_TCP, TCP_NODELAY}, {IPPROTO_TCP, TCP_KEEPIDLE},
                                  {IPPROTO_TCP, TCP_KEEPINTVL}, {IPPROTO_TCP, TCP_KEEPCNT},
                                  {IPPROTO_TCP, TCP_USER_TIMEOUT}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        int v = opt(from, ints[i][0], ints[i][1]);
        if (v >= 0) setsockopt(to, ints[i][0], ints[i][1], &v, sizeof v);
    }
    static const int blobs[] = {SO_LINGER, SO_RCVTIMEO, SO_SNDTIMEO};
    for (size_t i = 0; i < sizeof blobs / sizeof blobs[0]; i++) {
        unsigned char b[32];
        socklen_t l = sizeof b;
        if (getsockopt(from, SOL_SOCKET, blobs[i], b, &l) == 0) setsockopt(to, SOL_SOCKET, blobs[i], b, l);
    }
}

/* The flags line of /proc/<pid>/fdinfo/<fd> (octal): the descriptor's close-on-exec bit lives only there. */
static int fd_cloexec(pid_t pid, int fd) {
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", pid, fd);
    int f = open(path, O_RDONLY | O_CLOEXEC);
    if (f < 0) return 1; /* unknown: the safer side (the program's execs do not inherit it) */
    ssize_t n = read(f, buf, sizeof buf - 1);
    close(f);
    if (n <= 0) return 1;
    buf[n] = 0;
    char *p = strstr(buf, "flags:");
    return p ? (strtoul(p + 6, NULL, 8) & O_CLOEXEC) != 0 : 1;
}

/* Our own (host) socket connected to the address read, or -errno. Non-blocking connects stay in progress. */
static int host_socket(int family, const struct sockaddr_storage *to, socklen_t len, int nonblock, int *inprogress) {
    int s = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_TCP);
    if (s < 0) return -errno;
    *inprogress = 0;
    if (connect(s, (const struct sockaddr *)to, len) == 0) return s;
    if (errno != EINPROGRESS) { int e = errno; close(s); return -e; }
    if (nonblock) { *inprogress = 1; return s; }
    struct pollfd p = {s, POLLOUT, 0};
    int e = poll(&p, 1, INJECT_CONNECT_MS) == 1 ? opt(s, SOL_SOCKET, SO_ERROR) : ETIMEDOUT;
    if (e != 0) { close(s); return -(e > 0 ? e : EIO); }
    return s;
}

/* A connect on a socket of the host's namespace (one we injected): answered here, never continued. */
static int foreign_answer(int s, const struct sockaddr_storage *a, ssize_t got) {
    if (got < (ssize_t)sizeof(sa_family_t) || a->ss_family == AF_UNSPEC) return -EPERM; /* no disconnect */
    int st = tcp_state(s);
    if (st == TCP_SYN_SENT) return -EALREADY;
    int e = opt(s, SOL_SOCKET, SO_ERROR);
    if (e > 0) return -e;
    return st == TCP_ESTABLISHED || st == TCP_CLOSE_WAIT ? -EISCONN : -EPERM;
}

static int send_resp(int listener, __u64 id, int error, int cont) {
    struct seccomp_notif_resp r;
    memset(&r, 0, sizeof r);
    r.id = id;
    r.error = cont ? 0 : error;
    r.flags = cont ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0;
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &r) < 0 && errno != ENOENT) return -1;
    return 0;
}

static int setup(void) {
    static struct seccomp_notif_sizes sizes;
    if (sizes.seccomp_notif) return 0;
    if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) return -1;
    if (sizes.seccomp_notif > sizeof(struct seccomp_notif)) return -1; /* a kernel with more than we can keep */
    int probe = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0); /* the relay's own namespace: the host's */
    host_cookie = probe < 0 ? 0 : cookie(probe);
    if (probe >= 0) close(probe);
    if (!host_cookie) { sizes.seccomp_notif = 0; return -1; } /* cannot tell our sockets from the program's */
    return 0;
}

int inject_serve(int listener) {
    if (setup() < 0) return -1; /* served by nobody: the listener closes and trapped connects fail (ENOSYS) */
    struct seccomp_notif n;
    memset(&n, 0, sizeof n);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &n) < 0) return errno == ENOENT || errno == EINTR ? 0 : -1;
    return inject_handle(listener, &n);
}

int inject_handle(int listener, const struct seccomp_notif *req) {
    if (setup() < 0) return send_resp(listener, req->id, -ENOSYS, 0);
    __u64 id = req->id;
    /* Received here: the pid is in the relay's (the host's) pid namespace. */
    pid_t pid = (pid_t)req->pid;
    int fd = (int)req->data.args[0];
    if (req->data.nr != __NR_connect || req->data.arch != AUDIT_ARCH_X86_64) return send_resp(listener, id, -ENOSYS, 0);
    int pidfd = pid > 0 ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
    int s = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
    if (pidfd >= 0) close(pidfd);
    /* No copy (bad descriptor, not ours to take): the kernel answers the call itself, as it would have. */
    if (s < 0) return send_resp(listener, id, 0, 1);
    struct sockaddr_storage a;
    memset(&a, 0, sizeof a);
    size_t want = req->data.args[2] < sizeof a ? (size_t)req->data.args[2] : sizeof a;
    struct iovec local = {&a, want}, remote = {(void *)(uintptr_t)req->data.args[1], want};
    ssize_t got = want ? process_vm_readv(pid, &local, 1, &remote, 1, 0) : 0;
    /* The address was read from memory the program controls; the id must still name the same blocked call. */
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0) { close(s); return 0; }
    int rc;
    if (cookie(s) == host_cookie) {
        rc = send_resp(listener, id, foreign_answer(s, &a, got), 0);
        close(s);
        return rc;
    }
    int family = 0;
    int port_ok = 0;
    /* An address length the kernel would refuse (over 128 bytes) is continued: the kernel answers EINVAL. */
    if (got == (ssize_t)want && req->data.args[2] <= sizeof a && replaceable(s, &family) && a.ss_family == family) {
        if (family == AF_INET && want >= sizeof(struct sockaddr_in)) {
            struct sockaddr_in *in = (struct sockaddr_in *)&a;
            port_ok = in->sin_addr.s_addr == htonl(INADDR_LOOPBACK) && is_granted(ntohs(in->sin_port));
        } else if (family == AF_INET6 && want >= sizeof(struct sockaddr_in6)) {
            struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a;
            port_ok = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr) && is_granted(ntohs(in6->sin6_port));
        }
    }
    if (!port_ok) { close(s); return send_resp(listener, id, 0, 1); } /* the program's namespace decides */
    int status = fcntl(s, F_GETFL);
    int nonblock = status >= 0 && (status & O_NONBLOCK);
    int inprogress = 0;
    int h = host_socket(family, &a, family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6),
                        nonblock, &inprogress);
    if (h < 0) { close(s); return send_resp(listener, id, h, 0); } /* e.g. ECONNREFUSED: nothing on the host */
    copy_options(s, h);
    if (!nonblock) fcntl(h, F_SETFL, fcntl(h, F_GETFL) & ~O_NONBLOCK);
    struct seccomp_notif_addfd add = {.id = id, .flags = SECCOMP_ADDFD_FLAG_SETFD, .srcfd = (__u32)h,
                                      .newfd = (__u32)fd, .newfd_flags = fd_cloexec(pid, fd) ? O_CLOEXEC : 0};
    close(s);
    /* Not ADDFD_FLAG_SEND: that answers the call with the new descriptor's number, and connect returns 0. The
     * caller stays blocked between the two ioctls, so it never sees the new socket before its answer. */
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add) < 0) {
        int e = errno;
        close(h);
        return e == ENOENT ? 0 : send_resp(listener, id, -EIO, 0);
    }
    close(h);
    return send_resp(listener, id, inprogress ? -EINPROGRESS : 0, 0);
}

/* The caller's pid as init sees it: the relay reads the notification's pid in its own namespace, init's namespace is
 * pid_level below it, and /proc/<pid>/status lists the pid in each namespace from the reader's down (NSpid). 0 when
 * it cannot be read (the record then says pid 0; the answer does not depend on it). */
static pid_t init_view(pid_t pid) {
    if (pid_level == 0) return pid;
    char path[64], buf[2048];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    int f = open(path, O_RDONLY | O_CLOEXEC);
    if (f < 0) return 0;
    ssize_t n = read(f, buf, sizeof buf - 1);
    close(f);
    if (n <= 0) return 0;
    buf[n] = 0;
    char *p = strstr(buf, "\nNSpid:");
    if (!p) return 0;
    p += 7;
    for (int level = 0;; level++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) return 0;
        if (level == pid_level) return (pid_t)v;
        p = end;
    }
}

int inject_receive(int listener, int ctl) {
    /* No setup() here: denials are answered whatever it says (inject_handle answers a connect ENOSYS without it). */
    struct seccomp_notif n;
    memset(&n, 0, sizeof n);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &n) < 0) return errno == ENOENT || errno == EINTR ? 0 : -1;
    if (n.data.nr == __NR_connect && n.data.arch == AUDIT_ARCH_X86_64) return inject_handle(listener, &n);
    /* A denial (the merged filter answers a denied connect itself, so a connect here is always the trap's). */
    struct inject_denial d = {{0, 0, 0, 'D'}, (uint32_t)n.data.nr, (uint32_t)init_view((pid_t)n.pid), n.data.args[0],
                              n.data.args[1], n.data.args[2]};
    /* The pid was read after the notification: it must still name the blocked caller, not a reused number. */
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &n.id) < 0) return 0;
    /* Blocking: init reads its end in its loop; once init is gone (the tree is over) the send fails at once. */
    if (send(ctl, &d, sizeof d, MSG_NOSIGNAL) < 0) { /* no init left to record it: answered all the same */ }
    return send_resp(listener, n.id, -EPERM, 0);
}
