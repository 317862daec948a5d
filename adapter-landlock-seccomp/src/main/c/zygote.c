/*
 * The pre-forked launcher (PROTOCOL.md, "Zygote"): `aasm-launch serve unix:<socket>`. Started once by the
 * resident kernel, it forks one child per request; the child runs exactly what a fresh `aasm-launch unix:<socket>`
 * runs, on the stdio the request handed over. The zygote itself never reads a plan, opens nothing per launch and
 * keeps no per-launch state beyond the pids of its unreaped children (so a signal the supervisor asks for reaches
 * only a child of ours, never a recycled pid).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zygote.h"

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

#define ZYGOTE_MAX_CHILDREN 4096
#define ZYGOTE_EXIT_BAD_PEER 122

static pid_t children[ZYGOTE_MAX_CHILDREN];
static size_t nchildren;

static int own_child(pid_t pid) {
    for (size_t i = 0; i < nchildren; i++)
        if (children[i] == pid) return 1;
    return 0;
}

static void forget_child(pid_t pid) {
    for (size_t i = 0; i < nchildren; i++)
        if (children[i] == pid) { children[i] = children[--nchildren]; return; }
}

/* Replies are one SOCK_SEQPACKET message each: u32 op, i32 pid, i32 value. */
static void reply(int ctrl, uint32_t op, int32_t pid, int32_t value) {
    unsigned char m[12];
    memcpy(m, &op, 4);
    memcpy(m + 4, &pid, 4);
    memcpy(m + 8, &value, 4);
    while (send(ctrl, m, sizeof m, MSG_NOSIGNAL) < 0 && errno == EINTR) {}
}

static int connect_to_supervisor(const char *spec) {
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strncmp(spec, "unix:", 5) != 0 || spec[5] != '/' || strlen(spec + 5) >= sizeof sa.sun_path) return -1;
    strcpy(sa.sun_path, spec + 5);
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof sa) < 0) return -1;
    /* Only our parent (the resident kernel that executed us) may drive us: anyone else who reached the socket
     * before it was deleted is refused here. */
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid != getppid() || cred.uid != getuid()) {
        close(s);
        return -2;
    }
    return s;
}

/* A request as received: its bytes and up to four descriptors (stdin, stdout, stderr, and the launch's channel
 * when the plan came with the request). */
struct request {
    unsigned char buf[512];
    ssize_t n;
    int fds[4];
    int nfds;
    int truncated;
};

static void receive(int fd, struct request *r) {
    union { char c[CMSG_SPACE(5 * sizeof(int))]; struct cmsghdr align; } cm;
    struct iovec iov = {r->buf, sizeof r->buf - 1};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.c, .msg_controllen = sizeof cm.c};
    r->nfds = 0;
    r->n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
    r->buf[r->n > 0 ? r->n : 0] = 0; /* the spec is a string: the buffer keeps one byte for its end */
    r->truncated = r->n > 0 && (mh.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) != 0;
    for (struct cmsghdr *c = r->n > 0 ? CMSG_FIRSTHDR(&mh) : NULL; c; c = CMSG_NXTHDR(&mh, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < k; i++) {
            int fd1;
            memcpy(&fd1, CMSG_DATA(c) + i * sizeof(int), sizeof fd1);
            if (r->nfds < 4) r->fds[r->nfds++] = fd1;
            else { close(fd1); r->truncated = 1; }
        }
    }
}

static void close_request(struct request *r) {
    for (int i = 0; i < r->nfds; i++) close(r->fds[i]);
    r->nfds = 0;
    explicit_bzero(r->buf, sizeof r->buf); /* a spare forked later must not find this request in its copy */
}

/* A LAUNCH request the zygote can hand on: stdio (and the channel), the spec after the 12 bytes, nothing cut. */
static int launch_request_ok(const struct request *r) {
    if (r->truncated || r->n <= 12 || (r->nfds != 3 && r->nfds != 4)) return 0;
    const char *spec = (const char *)r->buf + 12;
    if (strnlen(spec, (size_t)(r->n - 12)) != (size_t)(r->n - 12)) return 0;
    /* The channel, when sent, is fd 3 of the launcher: the spec must say so (and only then may say it). */
    return (r->nfds == 4) == (strcmp(spec, "fd:3,3") == 0);
}

/* In a forked child with its request: make its stdio 0-2 (and its channel 3), close the rest, run the launch. */
static int run_request(struct request *r, int (*launch)(const char *)) {
    for (int i = 0; i < r->nfds; i++)
        if (r->fds[i] < r->nfds && r->fds[i] != i) { /* lift a low descriptor out of the way of the dup2s below */
            int moved = fcntl(r->fds[i], F_DUPFD_CLOEXEC, r->nfds);
            if (moved < 0) _exit(ZYGOTE_EXIT_BAD_PEER);
            r->fds[i] = moved;
        }
    for (int i = 0; i < r->nfds; i++)
        if (dup2(r->fds[i], i) < 0) _exit(ZYGOTE_EXIT_BAD_PEER);
    syscall(SYS_close_range, (unsigned)r->nfds, ~0U, 0U);
    /* A fresh exec is dumpable until it makes itself non-dumpable after the user namespace maps (which an
     * unprivileged non-dumpable process cannot write); the launcher starts in the same state. */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    char spec[512];
    memcpy(spec, r->buf + 12, (size_t)(r->n - 12) + 1);
    return launch(spec);
}

/* In the spare: wait for the one request the zygote hands on and run it. End of file first (the zygote ended):
 * exit without having done anything. */
static int spare_main(int pair, const sigset_t *old, int (*launch)(const char *)) {
    sigprocmask(SIG_SETMASK, old, NULL);
    struct request r;
    do receive(pair, &r); while (r.n < 0 && errno == EINTR);
    if (r.n <= 0 || !launch_request_ok(&r)) _exit(0);
    close(pair);
    return run_request(&r, launch);
}

/* The child forked ahead: one at a time, forked before any request it will serve, so it holds nothing of any. */
static pid_t spare_pid = -1;
static int spare_sock = -1;
static int ahead = 1; /* 0 (`no-spare`): the child is forked when its request comes */

static void fork_spare(int ctrl, int sfd, const sigset_t *old, int (*launch)(const char *)) {
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) return;
    pid_t pid = fork();
    if (pid == 0) {
        close(ctrl);
        close(sfd);
        close(sp[0]);
        exit(spare_main(sp[1], old, launch));
    }
    close(sp[1]);
    if (pid < 0) { close(sp[0]); return; }
    spare_pid = pid;
    spare_sock = sp[0];
}

static void drop_spare(void) {
    if (spare_sock >= 0) close(spare_sock); /* the spare reads end of file and exits */
    spare_sock = -1;
    spare_pid = -1;
}

/* Hands the request to the spare; returns its pid, or -errno when it could not take it. */
static pid_t hand_to_spare(const struct request *r) {
    union { char c[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } cm;
    memset(&cm, 0, sizeof cm);
    struct iovec iov = {(void *)r->buf, (size_t)r->n};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.c,
                        .msg_controllen = CMSG_SPACE((size_t)r->nfds * sizeof(int))};
    struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN((size_t)r->nfds * sizeof(int));
    memcpy(CMSG_DATA(c), r->fds, (size_t)r->nfds * sizeof(int));
    ssize_t n;
    while ((n = sendmsg(spare_sock, &mh, MSG_NOSIGNAL)) < 0 && errno == EINTR) {}
    pid_t pid = n == r->n ? spare_pid : -(errno ? errno : EIO);
    if (pid < 0) kill(spare_pid, SIGKILL); /* it took nothing: it must not be left waiting either */
    drop_spare();
    return pid;
}

static void serve_request(int ctrl, int sfd, const sigset_t *old, int (*launch)(const char *)) {
    struct request r;
    receive(ctrl, &r);
    if (r.n < 0 && errno == EINTR) return;
    if (r.n <= 0) _exit(0); /* the supervisor's end closed (or failed): the lifeline, we end with it */
    uint32_t op = 0, a = 0, b = 0;
    if (r.n >= 12) { memcpy(&op, r.buf, 4); memcpy(&a, r.buf + 4, 4); memcpy(&b, r.buf + 8, 4); }
    if (op == ZYGOTE_OP_SIGNAL && r.n == 12) {
        if (own_child((pid_t)a) && b > 0 && b < 65) kill((pid_t)a, (int)b);
    } else if (op == ZYGOTE_OP_LAUNCH) {
        pid_t pid = -EINVAL;
        if (launch_request_ok(&r) && nchildren < ZYGOTE_MAX_CHILDREN) {
            if (!ahead) { /* forked now, with the request already in its copy of our memory */
                pid = fork();
                if (pid == 0) {
                    close(ctrl);
                    close(sfd);
                    sigprocmask(SIG_SETMASK, old, NULL);
                    exit(run_request(&r, launch));
                }
                if (pid < 0) pid = -errno;
            }
            /* Twice at most: a spare that died before the zygote saw its SIGCHLD refuses the hand-over. */
            for (int attempt = 0; ahead && attempt < 2 && pid < 0; attempt++) {
                if (spare_pid < 0) fork_spare(ctrl, sfd, old, launch);
                pid = spare_pid < 0 ? -EAGAIN : hand_to_spare(&r);
            }
            if (pid > 0) children[nchildren++] = pid;
        }
        reply(ctrl, ZYGOTE_OP_LAUNCH, pid < 0 ? -1 : pid, pid < 0 ? -pid : 0);
        close_request(&r);
        /* The next launch's child, forked now, off that launch's path. */
        if (ahead && pid > 0 && spare_pid < 0 && nchildren < ZYGOTE_MAX_CHILDREN) fork_spare(ctrl, sfd, old, launch);
        return;
    }
    close_request(&r);
}

int zygote_serve(const char *spec, int spare_ahead, int (*launch)(const char *spec)) {
    ahead = spare_ahead;
    /* Nothing per launch is ever here, but the zygote is the parent of every launcher: keep the same uid's
     * programs from tracing it or reading its /proc files. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    syscall(SYS_close_range, 3U, ~0U, 0U);
    int ctrl = connect_to_supervisor(spec);
    if (ctrl < 0) return ZYGOTE_EXIT_BAD_PEER;
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0) return ZYGOTE_EXIT_BAD_PEER;
    if (ahead) fork_spare(ctrl, sfd, &old, launch);
    for (;;) {
        struct pollfd pf[2] = {{ctrl, POLLIN, 0}, {sfd, POLLIN, 0}};
        if (poll(pf, 2, -1) < 0) continue;
        if (pf[1].revents & POLLIN) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) == sizeof si) {}
            int st;
            pid_t p;
            while ((p = waitpid(-1, &st, WNOHANG)) > 0)
                if (own_child(p)) { forget_child(p); reply(ctrl, ZYGOTE_OP_EXITED, p, st); }
                else if (p == spare_pid) drop_spare(); /* killed while waiting: the next request forks again */
        }
        if (pf[0].revents) serve_request(ctrl, sfd, &old, launch);
    }
}
