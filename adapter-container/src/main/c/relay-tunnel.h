/*
 * One relayed connection of aasm-container-relay (RELAY.md), carried by its own child process: the program's
 * socket c to a new connection s to the mediation session, with the hand-off of relay capability version 1
 * (the native adapter's PROTOCOL.md, "Hand-off", which both relays speak).
 *
 * The relay announces the capability (0xFF 'A' 'H' 1) and writes the session's preamble, in one write before
 * anything of the program's. Then:
 *   DIALOG  the program's bytes are spliced to the session; the session's answers are read with recvmsg, so a
 *           marker message (one byte carrying descriptors in SCM_RIGHTS) is found where it is in the stream
 *           (splice would consume the descriptors and drop them).
 *   PLAIN   marker 'P': the proxy stays in the byte path (plain HTTP, which it rewrites; or hand-off off); the
 *           session's side is spliced from then on.
 *   HANDED  marker 'H' with the dialled upstream socket u and a report socket r: the relay half-closes its side
 *           of the session connection and stops reading the program; the proxy forwards what it had read past
 *           the request and closes. The destination's bytes already flow to the program.
 *   DIRECT  that end of file is the go: program <-> upstream, the pipe's leftover first (the program's bytes
 *           keep their order); the proxy is out of the byte path.
 * When the tunnel ends the relay writes its byte counts to r ("AHC" 1, u64 up, u64 down, flags). It never
 * chooses a destination: it carries what the session admitted and dialled.
 */
#ifndef AASM_RELAY_TUNNEL_H
#define AASM_RELAY_TUNNEL_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TUNNEL_PIPE (1 << 20)
#define TUNNEL_DIALOG_BUF 4096
#define TUNNEL_HANDOFF_VERSION 1

enum { T_DIALOG, T_PLAIN, T_HANDED, T_DIRECT };

/* One direction: from -> pipe -> to. full: the last splice into the pipe found no room, so `from` is not read
 * until the pipe drained some (a pipe counts slots, not bytes). */
struct half { int rd, wr; size_t queued; int full, eof, shut; unsigned long long sent; };

struct tunnel {
    int c, s, u, r, mode;
    struct half up, down; /* up: program -> session/upstream; down: session/upstream -> program */
    unsigned char dbuf[TUNNEL_DIALOG_BUF]; /* DIALOG: the session's answer not yet written to the program */
    size_t dlen, doff;
};

static volatile sig_atomic_t tunnel_cut; /* the relay ended (PR_SET_PDEATHSIG SIGTERM): report and go */

static void tunnel_on_cut(int sig) {
    (void) sig;
    tunnel_cut = 1;
}

static int half_open(struct half *h) {
    int p[2];
    if (pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0) return -1;
    fcntl(p[1], F_SETPIPE_SZ, TUNNEL_PIPE); /* fewer, larger moves; the default 64 KiB stays if refused */
    *h = (struct half){.rd = p[0], .wr = p[1]};
    return 0;
}

/* Moves what can move now, from -> pipe -> to, without blocking. -1: the connection must end. */
static int half_move(int from, short rev_from, int to, struct half *h) {
    const unsigned flags = SPLICE_F_MOVE | SPLICE_F_NONBLOCK;
    for (int round = 0; round < 4; round++) {
        int moved = 0;
        if (!h->eof && !h->full && (round > 0 || (rev_from & (POLLIN | POLLHUP | POLLERR)))) {
            ssize_t n = splice(from, NULL, h->wr, NULL, TUNNEL_PIPE, flags);
            if (n > 0) { h->queued += (size_t) n; moved = 1; }
            else if (n == 0) h->eof = 1;
            else if (errno == EAGAIN) { if (h->queued) h->full = 1; }
            else if (errno != EINTR) return -1;
        }
        if (h->queued) {
            ssize_t n = splice(h->rd, NULL, to, NULL, h->queued, flags);
            if (n > 0) { h->queued -= (size_t) n; h->sent += (unsigned long long) n; h->full = 0; moved = 1; }
            else if (n < 0 && errno != EAGAIN && errno != EINTR) return -1;
        }
        if (!moved || h->eof) break;
    }
    if (h->eof && h->queued == 0 && !h->shut) { shutdown(to, SHUT_WR); h->shut = 1; }
    return 0;
}

/* DIALOG: what is left of the session's answer, to the program. */
static int dialog_flush(struct tunnel *t) {
    while (t->doff < t->dlen) {
        ssize_t n = send(t->c, t->dbuf + t->doff, t->dlen - t->doff, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
        t->doff += (size_t) n;
    }
    t->dlen = t->doff = 0;
    return 0;
}

/* DIALOG: one read of the session's side. A read that brings descriptors ends with their marker byte (a stream
 * read stops right after a message that carries descriptors). Anything not of this protocol ends the tunnel. */
static int dialog_read(struct tunnel *t) {
    char cbuf[CMSG_SPACE(2 * sizeof(int))];
    struct iovec iov = {t->dbuf, sizeof t->dbuf};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    ssize_t n = recvmsg(t->s, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
    int fds[2] = {-1, -1}, nfds = 0;
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS) continue;
        size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < k; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
            if (nfds < 2) fds[nfds++] = fd;
            else close(fd);
        }
    }
    unsigned char marker = n > 0 ? t->dbuf[n - 1] : 0;
    int truncated = (mh.msg_flags & MSG_CTRUNC) != 0;
    if (n > 0 && nfds == 2 && marker == 'H' && !truncated) {
        t->dlen = (size_t) n - 1;
        t->u = fds[0];
        t->r = fds[1];
        fcntl(t->u, F_SETFL, O_NONBLOCK);
        shutdown(t->s, SHUT_WR); /* the proxy reads to this end, forwards it itself, then closes: our go */
        t->mode = T_HANDED;
        t->down.sent = 0;
        return 0;
    }
    for (int i = 0; i < nfds; i++) close(fds[i]);
    if (n == 0) { t->down.eof = 1; return 0; } /* the session ended the exchange (a refusal, an error) */
    if (nfds == 0) { t->dlen = (size_t) n; return 0; }
    if (marker != 'P' || truncated) return -1;
    t->dlen = (size_t) n - 1;
    t->mode = T_PLAIN;
    return 0;
}

/* HANDED: the session's end of file says the proxy forwarded what it had read; a byte breaks the protocol. */
static int handed_read(struct tunnel *t) {
    char x;
    ssize_t n = recv(t->s, &x, 1, MSG_DONTWAIT);
    if (n < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
    if (n > 0) return -1;
    close(t->s);
    t->s = -1;
    t->mode = T_DIRECT;
    t->up.sent = 0;
    if (t->up.eof) t->up.shut = 0; /* a half-close the proxy saw is owed to the destination too */
    return 0;
}

/* The counts, as this relay moved them after the hand-off; flags 1: ended abnormally. */
static void tunnel_report(struct tunnel *t, int abnormal) {
    if (t->r < 0) return;
    unsigned char m[24] = {'A', 'H', 'C', 1};
    unsigned long long up = t->mode == T_DIRECT ? t->up.sent : 0, down = t->down.sent;
    for (int i = 0; i < 8; i++) {
        m[4 + i] = (unsigned char) (up >> (8 * i));
        m[12 + i] = (unsigned char) (down >> (8 * i));
    }
    m[20] = (unsigned char) (abnormal ? 1 : 0);
    if (write(t->r, m, sizeof m) < 0) { /* the proxy is gone: nobody is left to tell */ }
    close(t->r);
    t->r = -1;
}

/* Carries the tunnel until both directions ended (0) or it broke or was cut (1), then reports. */
static int tunnel_run(struct tunnel *t) {
    int abnormal = 1;
    for (;;) {
        if (tunnel_cut) break;
        int handed = t->mode == T_HANDED;
        int d = handed || t->mode == T_DIRECT ? t->u : t->s;
        short ec = (short) ((!handed && !t->up.full && !t->up.eof ? POLLIN : 0) | (t->down.queued || t->dlen ? POLLOUT : 0));
        short ed = (short) ((!t->dlen && !t->down.full && !t->down.eof ? POLLIN : 0) | (!handed && t->up.queued ? POLLOUT : 0));
        /* while HANDED the program is not read; once nothing more can go to it either, a hung-up program side
         * would wake poll for nothing until the proxy's end of file, so it is left out */
        int cfd = handed && t->down.shut && !t->dlen ? -1 : t->c;
        struct pollfd pf[3] = {{cfd, ec, 0}, {d, ed, 0}, {handed ? t->s : -1, POLLIN, 0}};
        if (poll(pf, 3, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        short rc = pf[0].revents, rd = pf[1].revents;
        int err = 0;
        if (handed && (pf[2].revents & (POLLIN | POLLHUP | POLLERR))) err |= handed_read(t) < 0;
        d = t->mode == T_HANDED || t->mode == T_DIRECT ? t->u : t->s;
        if (!err && t->dlen) err |= dialog_flush(t) < 0;
        if (!err && t->mode != T_HANDED) err |= half_move(t->c, rc, d, &t->up) < 0;
        if (!err && !t->dlen) {
            if (t->mode == T_DIALOG) {
                if (rd & (POLLIN | POLLHUP | POLLERR)) err |= dialog_read(t) < 0 || dialog_flush(t) < 0;
                if (t->mode == T_DIALOG && t->down.eof && !t->dlen && !t->down.shut) {
                    shutdown(t->c, SHUT_WR);
                    t->down.shut = 1;
                }
            } else {
                err |= half_move(d, rd, t->c, &t->down) < 0;
            }
        }
        int done = t->up.shut && t->down.shut && t->mode != T_HANDED;
        if (done) { abnormal = 0; break; }
        /* an error, or a side hung up with nothing left to move from it: poll would report it forever */
        if (err || ((rc | rd) & POLLERR) || ((rc & POLLHUP) && t->up.eof && !t->up.queued && t->mode != T_HANDED)
            || ((rd & POLLHUP) && t->down.eof && !t->down.queued && !t->dlen))
            break;
    }
    tunnel_report(t, abnormal);
    return abnormal;
}

/* A tunnel for the program's socket c and the session connection s (both non-blocking from here). */
static int tunnel_open(struct tunnel *t, int c, int s) {
    memset(t, 0, sizeof *t);
    t->c = c;
    t->s = s;
    t->u = t->r = -1;
    t->mode = T_DIALOG;
    if (half_open(&t->up) < 0 || half_open(&t->down) < 0) return -1;
    fcntl(c, F_SETFL, O_NONBLOCK);
    fcntl(s, F_SETFL, O_NONBLOCK);
    return 0;
}

#endif
