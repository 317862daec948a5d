/*
 * The pre-forked launcher (PROTOCOL.md, "Zygote"): `aasm-launch serve unix:<socket>`. Started once by the
 * resident kernel, it forks one child per request; the child runs exactly what a fresh `aasm-launch unix:<socket>`
 * runs, on the stdio the request handed over. The zygote itself never reads a plan, opens nothing per launch and
 * keeps no per-launch state beyond the pids of its unreaped children (so a signal the supervisor asks for reaches
 * only a child of ours, never a recycled pid).
 */
#include <errno.h>
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

/* In the forked child: the request's stdio becomes 0-2, and nothing else of the zygote survives. */
static void become_launcher(int ctrl, int sfd, const int *fds, const sigset_t *old) {
    close(ctrl);
    close(sfd);
    for (int i = 0; i < 3; i++)
        if (dup2(fds[i], i) < 0) _exit(ZYGOTE_EXIT_BAD_PEER);
    syscall(SYS_close_range, 3U, ~0U, 0U);
    sigprocmask(SIG_SETMASK, old, NULL);
    /* A fresh exec is dumpable until it makes itself non-dumpable after the user namespace maps (which an
     * unprivileged non-dumpable process cannot write); the child starts in the same state. */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static void serve_request(int ctrl, int sfd, const sigset_t *old, int (*launch)(const char *)) {
    unsigned char buf[512];
    union { char c[CMSG_SPACE(3 * sizeof(int))]; struct cmsghdr align; } cm;
    struct iovec iov = {buf, sizeof buf - 1};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.c, .msg_controllen = sizeof cm.c};
    ssize_t n = recvmsg(ctrl, &mh, MSG_CMSG_CLOEXEC);
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) _exit(0); /* the supervisor's end closed (or failed): the lifeline, we end with it */
    int fds[3] = {-1, -1, -1}, nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < k; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (nfds < 3) fds[nfds++] = fd;
            else close(fd);
        }
    }
    uint32_t op = 0, a = 0, b = 0;
    if (n >= 12) { memcpy(&op, buf, 4); memcpy(&a, buf + 4, 4); memcpy(&b, buf + 8, 4); }
    if (op == ZYGOTE_OP_SIGNAL && n == 12) {
        if (own_child((pid_t)a) && b > 0 && b < 65) kill((pid_t)a, (int)b);
    } else if (op == ZYGOTE_OP_LAUNCH) {
        buf[n] = 0;
        const char *spec = (const char *)buf + 12;
        pid_t pid = -EINVAL;
        if (nfds == 3 && !(mh.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) && n > 12 && strlen(spec) == (size_t)(n - 12)
                && nchildren < ZYGOTE_MAX_CHILDREN) {
            pid = fork();
            if (pid == 0) {
                become_launcher(ctrl, sfd, fds, old);
                exit(launch(spec));
            }
            if (pid < 0) pid = -errno;
            else children[nchildren++] = pid;
        }
        reply(ctrl, ZYGOTE_OP_LAUNCH, pid < 0 ? -1 : pid, pid < 0 ? -pid : 0);
    }
    for (int i = 0; i < nfds; i++) close(fds[i]);
}

int zygote_serve(const char *spec, int (*launch)(const char *spec)) {
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
        }
        if (pf[0].revents) serve_request(ctrl, sfd, &old, launch);
    }
}
