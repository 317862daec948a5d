/*
 * The loopback relay (RELAY_TCP_PORT, PROTOCOL.md). The program runs in a new network namespace whose
 * only interface is its own `lo`, so no destination of the host or beyond is routable. For each granted
 * port, the launcher listens on 127.0.0.1:Q and [::1]:Q inside that namespace and hands the listeners (SCM_RIGHTS
 * over a socketpair) to the relay, which accepts on them itself. The relay was forked before the unshare, so
 * it stays in the host's network namespace; it connects to the host's 127.0.0.1:Q (or ::1) and copies
 * bytes both ways. It can reach nothing else: the port comes from the listener, never from the program.
 * RELAY_PROXY adds one more listener whose connections go to the supervisor's proxy socket instead (a path
 * fixed in the plan), each starting with the hand-off capability and the plan's preamble, the session's credential
 * the program never sees. Once the proxy admitted and dialled a tunnel, it may hand the upstream socket over
 * (PROTOCOL.md, "Hand-off"): the relay then splices the program's socket and that socket directly, and reports the
 * tunnel's byte counts to the proxy when it ends. It still chooses no destination: it carries what it was handed.
 *
 * TCP bytes never pass through the relay's memory: each direction of a connection owns a pipe, and splice(2)
 * moves socket -> pipe -> socket by page reference. A read/send relay copied every byte twice through user
 * space, which on a loaded machine held bulk transfers to about a third of direct loopback (docs/benchmarks.md).
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "inject.h"
#include "relay.h"

#define RELAY_MAX_CONNS 64
/* Per direction and connection. A pipe holds page references, not bytes: this caps what one direction keeps in
 * flight (backpressure beyond it is the sockets' own). 256 KiB cost less relay CPU per GiB than the default
 * 64 KiB (docs/benchmarks.md, "Transport mediation"). */
#define RELAY_PIPE (256 * 1024)
/* Splices per direction and poll round: a bulk transfer moves several pipefuls per poll(2) call. */
#define RELAY_ROUNDS 4
#define RELAY_DRAIN_SECONDS 2

#define RELAY_MAX_UDP_SOCKS (2 * PLAN_MAX_RELAY_PORTS)
#define RELAY_MAX_FLOWS 64
#define RELAY_FLOW_IDLE_SECONDS 60

/* One direction: `from` -> pipe (wr end) -> pipe (rd end) -> `to`. queued: bytes in the pipe. full: the last
 * splice into the pipe found no room, so `from` is not polled until some of the pipe has drained (a pipe counts
 * slots, not bytes, so room cannot be computed, and polling a readable socket into a full pipe would spin). */
struct half { int rd, wr; size_t queued; int full, eof, shut; unsigned long long sent; };
/* How a proxied connection's b side is read (PROTOCOL.md, "Hand-off").
 * PLAIN: spliced both ways (granted ports; a proxy connection the proxy keeps in its own byte path).
 * DIALOG: the proxy's answers are read with recvmsg, so a hand-off message (one marker byte with descriptors in
 *   SCM_RIGHTS) is found at its exact place in the stream; splice would consume and drop the descriptors.
 * HANDED: the proxy handed the upstream socket u: the program's bytes wait (in a and the pipe) while the proxy
 *   forwards what it had already read; its end of file on b says it is done.
 * DIRECT: the program's socket and u are spliced both ways; the proxy is out of the byte path. */
enum { M_PLAIN, M_DIALOG, M_HANDED, M_DIRECT };
#define RELAY_DIALOG_BUF 4096
/* a: the program's side (inside the namespace), b: the host's loopback service or the proxy's session socket,
 * u: the upstream socket the proxy handed over (-1 before), r: where the relay reports the tunnel's counts. */
struct conn {
    int a, b, u, r, mode;
    struct half ab, ba;
    size_t dlen, doff; /* DIALOG: the proxy's answer bytes in dbuf_of(c) not yet written to the program */
};
static struct conn conns[RELAY_MAX_CONNS];
/* Apart from the connections: marking every slot free at start (and clearing one) then touches a few pages, not one
 * per slot. Each first touch of a page is a fault, which a paravirtualized host pays with a hypercall. */
static unsigned char dbufs[RELAY_MAX_CONNS][RELAY_DIALOG_BUF];

static unsigned char *dbuf_of(const struct conn *c) { return dbufs[c - conns]; }

/* UDP: the program's sockets (bound inside its namespace, handed over by the launcher) and one flow per client
 * address, each with its own socket connected to the host's loopback port, so replies find their way back. */
struct usock { int fd; uint16_t port; int family; };
struct flow { int inner; struct sockaddr_storage client; socklen_t clen; int host; time_t used; };
static struct usock usocks[RELAY_MAX_UDP_SOCKS];
static size_t nusocks;
static struct flow flows[RELAY_MAX_FLOWS];
/* The listeners in the program's namespace (RELAY_TCP_PORT, RELAY_PROXY), made by the launcher and handed over before
 * init exists: this relay accepts on them itself, so a connect waits for one wake-up (the relay's), not two (init's
 * accept and SCM_RIGHTS hand-over, then the relay's). Sockets keep the namespace they were made in wherever they are
 * held, so what the relay accepts is the program's end, as init's hand-over was. */
#define RELAY_MAX_LISTENERS (2 * PLAN_MAX_RELAY_PORTS + 2)
struct lsock { int fd; uint16_t port; int family, kind; };
static struct lsock lsocks[RELAY_MAX_LISTENERS];
static size_t nlsocks;
/* LOOPBACK_INJECT: the program's connect trap (inject.c), handed over by the program child; -1 without. */
static int inject_listener = -1;
/* LOOPBACK_INJECT merged into the decision filter: the relay receives every notification, answers connects and
 * denials, and sends each denial's record to init ('D', inject.h) before answering it. */
static int inject_shared = -1;

static void flow_drop(struct flow *f) {
    close(f->host);
    memset(f, 0, sizeof *f);
    f->host = -1;
}

static int host_datagram(uint16_t port, int family) {
    int s = socket(family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0) return -1;
    int rc;
    if (family == AF_INET6) {
        struct sockaddr_in6 sa = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
        rc = connect(s, (struct sockaddr *)&sa, sizeof sa);
    } else {
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr = {htonl(INADDR_LOOPBACK)}};
        rc = connect(s, (struct sockaddr *)&sa, sizeof sa);
    }
    if (rc < 0) { close(s); return -1; }
    return s;
}

/* A datagram from a client inside: forward it through that client's flow (a new one, evicting the oldest). */
static void udp_inbound(int u) {
    static char buf[65536];
    struct sockaddr_storage from;
    socklen_t flen = sizeof from;
    ssize_t n = recvfrom(usocks[u].fd, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &flen);
    if (n < 0) return;
    struct flow *f = NULL, *oldest = NULL, *free_slot = NULL;
    for (int i = 0; i < RELAY_MAX_FLOWS; i++) {
        struct flow *c = &flows[i];
        if (c->host < 0) { if (!free_slot) free_slot = c; continue; }
        if (c->inner == u && c->clen == flen && memcmp(&c->client, &from, flen) == 0) f = c;
        if (!oldest || c->used < oldest->used) oldest = c;
    }
    if (!f) {
        if (!free_slot) { flow_drop(oldest); free_slot = oldest; }
        int h = host_datagram(usocks[u].port, usocks[u].family);
        if (h < 0) return;
        f = free_slot;
        f->inner = u;
        f->client = from;
        f->clen = flen;
        f->host = h;
    }
    f->used = time(NULL);
    send(f->host, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* A reply from the host's service: back to the client, from the address it wrote to. */
static void udp_outbound(struct flow *f) {
    static char buf[65536];
    ssize_t n = recv(f->host, buf, sizeof buf, MSG_DONTWAIT);
    if (n < 0) {
        if (errno != EAGAIN && errno != EINTR) flow_drop(f); /* e.g. ECONNREFUSED: nothing listens on the host */
        return;
    }
    f->used = time(NULL);
    sendto(usocks[f->inner].fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&f->client, f->clen);
}

/* The tunnel's report to the proxy (PROTOCOL.md, "Hand-off"): "AHC" 1, u64 bytes to the destination, u64 bytes to
 * the program (both as this relay moved them, after the hand-off), u32 flags (1: ended abnormally). */
static void report(struct conn *c, int abnormal) {
    if (c->r < 0) return;
    unsigned char m[24] = {'A', 'H', 'C', 1};
    unsigned long long up = c->mode == M_DIRECT ? c->ab.sent : 0, down = c->ba.sent;
    for (int i = 0; i < 8; i++) { m[4 + i] = (unsigned char)(up >> (8 * i)); m[12 + i] = (unsigned char)(down >> (8 * i)); }
    m[20] = (unsigned char)(abnormal ? 1 : 0);
    if (write(c->r, m, sizeof m) < 0) { /* the proxy is gone: nobody is left to tell */ }
}

static void drop_as(struct conn *c, int abnormal) {
    report(c, abnormal);
    close(c->a);
    if (c->b >= 0) close(c->b);
    if (c->u >= 0) close(c->u);
    if (c->r >= 0) close(c->r);
    close(c->ab.rd); close(c->ab.wr);
    close(c->ba.rd); close(c->ba.wr);
    memset(c, 0, sizeof *c);
    c->a = c->b = c->u = c->r = -1;
}

static void drop(struct conn *c) { drop_as(c, 1); }

/* A non-blocking pipe for one direction; -1 when none can be made (the connection is then reset). */
static int half_open(struct half *h) {
    int p[2];
    if (pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0) return -1;
    fcntl(p[1], F_SETPIPE_SZ, RELAY_PIPE); /* best effort: a user over pipe-user-pages-soft keeps the default */
    *h = (struct half){.rd = p[0], .wr = p[1]};
    return 0;
}

/* RELAY_PROXY, copied before the fork: where proxy connections go and what each one starts with. */
static char proxy_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static unsigned char proxy_pre[PLAN_MAX_PREAMBLE];
static size_t proxy_pre_len;

static int proxy_connect(void) {
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return -1;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    memcpy(sa.sun_path, proxy_path, sizeof sa.sun_path - 1);
    if (connect(s, (struct sockaddr *)&sa, sizeof sa) < 0) { close(s); return -1; }
    fcntl(s, F_SETFL, O_NONBLOCK);
    return s;
}

static int host_connect(uint16_t port, int family) {
    int s = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return -1;
    int rc;
    if (family == AF_INET6) {
        struct sockaddr_in6 sa = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
        rc = connect(s, (struct sockaddr *)&sa, sizeof sa);
    } else {
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr = {htonl(INADDR_LOOPBACK)}};
        rc = connect(s, (struct sockaddr *)&sa, sizeof sa);
    }
    if (rc < 0) { close(s); return -1; }
    fcntl(s, F_SETFL, O_NONBLOCK);
    return s;
}

/* One message from the launcher or init, each with one descriptor: a listener to serve (u16 port, little-endian,
 * u8 family 4/6, u8 kind, 'A'), a UDP socket ('U'), the program's own trap listener ('N') or the shared one ('M'). */
static int receive(int ctl) {
    unsigned char msg[5];
    const unsigned char *msg4 = msg;
    char cbuf[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {msg, sizeof msg};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    ssize_t n = recvmsg(ctl, &mh, MSG_CMSG_CLOEXEC);
    if (n == 0) return 0; /* init is gone: the tree is over */
    if (n < 0) return errno == EINTR || errno == EAGAIN ? 1 : 0;
    int fd = -1;
    struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
    if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) memcpy(&fd, CMSG_DATA(cm), sizeof fd);
    if (fd < 0) return 1;
    if (n == 4 && msg4[3] == 'N' && inject_listener < 0 && inject_shared < 0) {
        inject_listener = fd; /* the program's own trap: this relay receives its notifications */
        return 1;
    }
    if (n == 4 && msg4[3] == 'M' && inject_listener < 0 && inject_shared < 0) {
        inject_shared = fd; /* the decision filter's listener: the relay receives, denials' records go to init */
        return 1;
    }
    if (n == 4 && msg4[3] == 'U' && nusocks < RELAY_MAX_UDP_SOCKS) {
        fcntl(fd, F_SETFL, O_NONBLOCK);
        usocks[nusocks++] = (struct usock){fd, (uint16_t)(msg4[0] | msg4[1] << 8), msg4[2] == 6 ? AF_INET6 : AF_INET};
        return 1;
    }
    if (n == 5 && msg4[4] == 'A' && nlsocks < RELAY_MAX_LISTENERS) {
        fcntl(fd, F_SETFL, O_NONBLOCK);
        lsocks[nlsocks++] = (struct lsock){fd, (uint16_t)(msg4[0] | msg4[1] << 8), msg4[2] == 6 ? AF_INET6 : AF_INET,
                                           msg4[3]};
        return 1;
    }
    close(fd);
    return 1;
}

static int pump(int from, short rev_from, int to, short rev_to, struct half *h);

/* One accepted connection of the program (a): its way to the host's loopback port, or to the proxy. */
static void adopt(int fd, uint16_t port, int family, int kind) {
    int proxied = kind == RELAY_KIND_PROXY && proxy_path[0];
    if (kind != RELAY_KIND_LOOPBACK && !proxied) { close(fd); return; }
    struct conn *slot = NULL;
    for (int i = 0; i < RELAY_MAX_CONNS && !slot; i++)
        if (conns[i].a < 0) slot = &conns[i];
    int b = !slot ? -1 : proxied ? proxy_connect()
                                 : host_connect(port, family);
    if (b < 0) { close(fd); return; } /* bounded, or nothing listens on the host: the program sees a reset */
    memset(slot, 0, sizeof *slot);
    slot->u = slot->r = -1;
    if (half_open(&slot->ab) < 0) { close(fd); close(b); slot->a = slot->b = -1; return; }
    if (half_open(&slot->ba) < 0) {
        close(slot->ab.rd); close(slot->ab.wr); close(fd); close(b);
        slot->a = slot->b = -1;
        return;
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    slot->a = fd;
    slot->b = b;
    /* The hand-off capability and the session's credential go first, before anything the program sends: into the
     * empty pipe, in one write (at most 68 bytes, below PIPE_BUF, so it is whole or not at all). The capability
     * comes before the credential, where only the relay writes: the program cannot claim it through a relay that
     * lacks it (the proxy never makes a credential beginning with 0xFF). */
    if (proxied) {
        unsigned char first[4 + PLAN_MAX_PREAMBLE] = {0xFF, 'A', 'H', RELAY_HANDOFF_VERSION};
        memcpy(first + 4, proxy_pre, proxy_pre_len);
        if (write(slot->ab.wr, first, 4 + proxy_pre_len) != (ssize_t)(4 + proxy_pre_len)) { drop(slot); return; }
        slot->ab.queued = 4 + proxy_pre_len;
        slot->mode = M_DIALOG;
    }
    /* The program has usually written its first bytes (a request) before this accept: they go now, behind the
     * preface, not a poll round later, so the far side reads them at its first read instead of waking twice (a
     * profile of the CONNECT path showed the proxy's first read waiting for the relay's next round). */
    if (pump(slot->a, POLLIN, slot->b, 0, &slot->ab) < 0) drop(slot);
}

/* Takes every connection waiting on a listener (non-blocking: EAGAIN ends the pass). */
static void accept_all(const struct lsock *l) {
    int c;
    while ((c = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC)) >= 0) adopt(c, l->port, l->family, l->kind);
}

/* Moves bytes from `from` into h's pipe and from the pipe to `to`, a few rounds while both move. Returns -1 when
 * the connection must be dropped. */
static int pump(int from, short rev_from, int to, short rev_to, struct half *h) {
    const unsigned flags = SPLICE_F_MOVE | SPLICE_F_NONBLOCK;
    for (int round = 0; round < RELAY_ROUNDS; round++) {
        int moved = 0;
        /* The first round only on poll's word; later rounds try: EAGAIN is cheap and ends the rounds. */
        if (!h->eof && !h->full && (round > 0 || (rev_from & (POLLIN | POLLHUP | POLLERR)))) {
            ssize_t n = splice(from, NULL, h->wr, NULL, RELAY_PIPE, flags);
            if (n > 0) { h->queued += (size_t)n; moved = 1; }
            else if (n == 0) h->eof = 1;
            else if (errno == EAGAIN) { if (h->queued) h->full = 1; }
            else if (errno != EINTR) return -1;
        }
        /* Sent at once, without waiting for POLLOUT: the peer usually has room, and waiting costs every chunk a
         * second poll round. Non-blocking: a full peer leaves the rest in the pipe for POLLOUT. */
        if (h->queued) {
            ssize_t n = splice(h->rd, NULL, to, NULL, h->queued, flags);
            if (n > 0) { h->queued -= (size_t)n; h->sent += (unsigned long long)n; h->full = 0; moved = 1; }
            else if (n < 0 && errno != EAGAIN && errno != EINTR) return -1;
        }
        if (!moved || h->eof) break;
    }
    if (rev_to & (POLLERR | POLLHUP) && !(rev_to & POLLIN) && h->queued) return -1;
    if (h->eof && h->queued == 0 && !h->shut) { shutdown(to, SHUT_WR); h->shut = 1; }
    return 0;
}

/* DIALOG: writes what is left of the proxy's answer to the program. Returns -1 when the program's side failed. */
static int dialog_flush(struct conn *c) {
    while (c->doff < c->dlen) {
        ssize_t n = send(c->a, dbuf_of(c) + c->doff, c->dlen - c->doff, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
        c->doff += (size_t)n;
    }
    c->dlen = c->doff = 0;
    return 0;
}

/* DIALOG: one read of the proxy's side. Answer bytes go to dbuf. A read that brings descriptors ends with the
 * marker byte of their message (the kernel stops a stream read right after a message with descriptors):
 * 'P': the proxy keeps this connection in its own byte path (splice from now on);
 * 'H': the dialled upstream socket and the report socket, in that order.
 * Returns -1 when the connection must be dropped. */
static int dialog_read(struct conn *c) {
    char cbuf[CMSG_SPACE(2 * sizeof(int))];
    struct iovec iov = {dbuf_of(c), RELAY_DIALOG_BUF};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    ssize_t n = recvmsg(c->b, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
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
    unsigned char marker = n > 0 ? dbuf_of(c)[n - 1] : 0;
    if (n > 0 && nfds == 2 && marker == 'H' && !(mh.msg_flags & MSG_CTRUNC)) {
        c->dlen = (size_t)n - 1;
        c->doff = 0;
        c->u = fds[0];
        c->r = fds[1];
        fcntl(c->u, F_SETFL, O_NONBLOCK);
        /* The proxy reads to this end of file everything the relay had sent it, forwards what followed the request
         * to the destination itself, and closes: only then do the program's next bytes go to u (order kept). */
        shutdown(c->b, SHUT_WR);
        c->mode = M_HANDED;
        c->ba.sent = 0;
        return 0;
    }
    for (int i = 0; i < nfds; i++) close(fds[i]);
    if (n == 0) { c->ba.eof = 1; return 0; } /* the proxy ended the exchange (a refusal, an error) */
    if (nfds == 0) { c->dlen = (size_t)n; c->doff = 0; return 0; }
    if (marker != 'P' || (mh.msg_flags & MSG_CTRUNC)) return -1; /* not this protocol: nothing is guessed */
    c->dlen = (size_t)n - 1;
    c->doff = 0;
    c->mode = M_PLAIN;
    return 0;
}

/* HANDED: the proxy's end of file on b says it forwarded what it had read; anything else breaks the protocol. */
static int handed_read(struct conn *c) {
    char x;
    ssize_t n = recv(c->b, &x, 1, MSG_DONTWAIT);
    if (n < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
    if (n > 0) return -1;
    close(c->b);
    c->b = -1;
    c->mode = M_DIRECT;
    c->ab.sent = 0;
    if (c->ab.eof) c->ab.shut = 0; /* a half-close the proxy saw is owed to the destination too */
    return 0;
}

/* One poll round of one connection: slots a (the program), d (b, or u once handed), x (b while HANDED). */
static void serve(struct conn *c, short ra, short rd, short rx) {
    int err = 0;
    if (c->mode == M_HANDED && (rx & (POLLIN | POLLHUP | POLLERR))) err |= handed_read(c) < 0;
    int d = c->mode == M_HANDED || c->mode == M_DIRECT ? c->u : c->b;
    if (!err && c->dlen) err |= dialog_flush(c) < 0;
    if (!err && c->mode != M_HANDED) err |= pump(c->a, ra, d, rd, &c->ab) < 0;
    if (!err && !c->dlen) {
        if (c->mode == M_DIALOG) {
            if (rd & (POLLIN | POLLHUP | POLLERR)) err |= dialog_read(c) < 0 || dialog_flush(c) < 0;
            if (c->mode == M_DIALOG && c->ba.eof && !c->dlen && !c->ba.shut) { shutdown(c->a, SHUT_WR); c->ba.shut = 1; }
        } else {
            err |= pump(d, rd, c->a, ra, &c->ba) < 0;
        }
    }
    /* An error, or a side shut both ways with nothing left to read from it, ends the pair: poll would report it
     * forever (events are not maskable), so keeping the pair would spin. */
    int done = c->ab.shut && c->ba.shut && c->mode != M_HANDED;
    if (err || done || ((ra | rd) & POLLERR) || ((ra & POLLHUP) && c->ab.eof && c->ab.queued == 0 && c->mode != M_HANDED)
        || ((rd & POLLHUP) && c->ba.eof && c->ba.queued == 0 && !c->dlen))
        drop_as(c, err || !done);
}

static void relay_main(int ctl) __attribute__((noreturn));
static void relay_main(int ctl) {
    for (int i = 0; i < RELAY_MAX_CONNS; i++) conns[i].a = conns[i].b = conns[i].u = conns[i].r = -1;
    for (int i = 0; i < RELAY_MAX_FLOWS; i++) flows[i].host = -1;
    struct pollfd pf[2 + RELAY_MAX_LISTENERS + 3 * RELAY_MAX_CONNS + RELAY_MAX_UDP_SOCKS + RELAY_MAX_FLOWS];
    int draining = 0;
    for (;;) {
        if (draining) {
            /* The tree is over: deliver what the program sent before it ended, then go. */
            int left = 0;
            for (int i = 0; i < RELAY_MAX_CONNS; i++)
                if (conns[i].a >= 0 && !conns[i].ab.shut) left++;
            if (!left) {
                for (int i = 0; i < RELAY_MAX_CONNS; i++) report(&conns[i], 1); /* cut by the launch's end */
                _exit(0);
            }
        }
        int n = 0;
        pf[n++] = (struct pollfd){draining ? -1 : ctl, POLLIN, 0};
        int trap = inject_listener >= 0 ? inject_listener : inject_shared; /* at most one of them is open */
        pf[n++] = (struct pollfd){trap, POLLIN, 0};
        int lfirst = n;
        for (size_t i = 0; i < nlsocks; i++) pf[n++] = (struct pollfd){lsocks[i].fd, POLLIN, 0};
        for (int i = 0; i < RELAY_MAX_CONNS; i++) {
            struct conn *c = &conns[i];
            if (c->a < 0) continue;
            int handed = c->mode == M_HANDED;
            short ea = (short)((!handed && !c->ab.full && !c->ab.eof ? POLLIN : 0) | (c->ba.queued || c->dlen ? POLLOUT : 0));
            short ed = (short)((!c->dlen && !c->ba.full && !c->ba.eof ? POLLIN : 0) | (!handed && c->ab.queued ? POLLOUT : 0));
            pf[n++] = (struct pollfd){c->a, ea, 0};
            pf[n++] = (struct pollfd){handed || c->mode == M_DIRECT ? c->u : c->b, ed, 0};
            pf[n++] = (struct pollfd){handed ? c->b : -1, POLLIN, 0};
        }
        int ufirst = n;
        for (size_t i = 0; i < nusocks; i++) pf[n++] = (struct pollfd){draining ? -1 : usocks[i].fd, POLLIN, 0};
        int ffirst = n;
        time_t now = time(NULL);
        for (int i = 0; i < RELAY_MAX_FLOWS; i++) {
            if (flows[i].host >= 0 && now - flows[i].used > RELAY_FLOW_IDLE_SECONDS) flow_drop(&flows[i]);
            pf[n++] = (struct pollfd){flows[i].host, POLLIN, 0};
        }
        if (poll(pf, (nfds_t)n, nusocks ? 1000 : -1) < 0) continue;
        for (int i = 0; i < (int)nusocks; i++)
            if (pf[ufirst + i].revents & POLLIN) udp_inbound(i);
        for (int i = 0; i < RELAY_MAX_FLOWS; i++)
            if (flows[i].host >= 0 && pf[ffirst + i].revents) udp_outbound(&flows[i]);
        /* A trapped connect first: the program's thread waits in it. POLLHUP: no task uses the filter any more. */
        if (pf[1].revents & POLLIN) {
            int rc = inject_listener >= 0 ? inject_serve(trap) : inject_receive(trap, ctl);
            if (rc < 0) pf[1].revents = POLLHUP;
        }
        if (pf[1].revents && !(pf[1].revents & POLLIN)) {
            close(trap);
            inject_listener = inject_shared = -1;
        }
        int k = lfirst + (int)nlsocks;
        for (int i = 0; i < RELAY_MAX_CONNS; i++) {
            struct conn *c = &conns[i];
            if (c->a < 0) continue;
            short ra = pf[k].revents, rd = pf[k + 1].revents, rx = pf[k + 2].revents;
            k += 3;
            serve(c, ra, rd, rx);
        }
        /* After the connections polled above, so that a new one gets its own poll round. */
        for (size_t i = 0; i < nlsocks; i++)
            if (pf[lfirst + i].revents) accept_all(&lsocks[i]);
        if (!draining && pf[0].revents && !receive(ctl)) {
            /* The tree is over: a connection made just before the program ended is still delivered; then nothing
             * more can arrive (and the namespace is no longer held by our listeners). */
            for (size_t i = 0; i < nlsocks; i++) { accept_all(&lsocks[i]); close(lsocks[i].fd); }
            nlsocks = 0;
            draining = 1;
            alarm(RELAY_DRAIN_SECONDS); /* default action: the relay ends even if a service never reads */
        }
    }
}

pid_t relay_start(int *init_end, const char *path, const unsigned char *preamble, size_t preamble_len) {
    if (path) {
        snprintf(proxy_path, sizeof proxy_path, "%s", path);
        memcpy(proxy_pre, preamble, preamble_len < sizeof proxy_pre ? preamble_len : sizeof proxy_pre);
        proxy_pre_len = preamble_len < sizeof proxy_pre ? preamble_len : sizeof proxy_pre;
    }
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) refuse("relay", "socketpair: %s", strerror(errno));
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) refuse("fork", "relay: %s", strerror(errno));
    if (pid > 0) {
        close(sp[1]);
        *init_end = sp[0];
        return pid;
    }
    /* The launcher is single-threaded, so PDEATHSIG towards it is reliable: the relay dies with it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    /* The drain deadline is SIGALRM's default action: never inherit it ignored or blocked. */
    signal(SIGALRM, SIG_DFL);
    /* splice(2) into a socket has no MSG_NOSIGNAL: a peer gone mid-transfer must be EPIPE, not the relay's end. */
    signal(SIGPIPE, SIG_IGN);
    sigset_t alrm;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    sigprocmask(SIG_UNBLOCK, &alrm, NULL);
    /* Keep nothing of the launcher's: not the supervisor's channel, not the user's stdio. */
    int ctl = fcntl(sp[1], F_DUPFD_CLOEXEC, 10); /* out of the way of stdio, even if the launcher had none */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; fd < 3; fd++) if (null >= 0) dup2(null, fd);
    if (ctl < 0 || dup2(ctl, 3) < 0) _exit(1);
    if (syscall(SYS_close_range, 4U, ~0U, 0U) < 0)
        for (int fd = 4; fd < 4096; fd++) close(fd);
    relay_main(3);
}

static int hand_over(int relay_sock, const unsigned char *msg, size_t len, int fd, int flags);

/* A listener goes to the relay at once; a relay that cannot take it would leave its connections unanswered. */
static void adopt_listener(int relay_sock, int s, uint16_t port, int family, int kind) {
    unsigned char msg[5] = {(unsigned char)(port & 0xff), (unsigned char)(port >> 8), (unsigned char)family,
                            (unsigned char)kind, 'A'};
    if (hand_over(relay_sock, msg, sizeof msg, s, 0) < 0) /* blocking: the relay is reading, however many */
        refuse("relay", "the listener on port %u could not be handed to the relay: %s", port, strerror(errno));
    close(s);
}

void relay_listen(int relay_sock, const uint16_t *ports, size_t n, int kind) {
    for (size_t i = 0; i < n; i++) {
        int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(ports[i]), .sin_addr = {htonl(INADDR_LOOPBACK)}};
        if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(s, 64) < 0)
            refuse("relay", "listen on 127.0.0.1:%u in the new network namespace: %s", ports[i], strerror(errno));
        adopt_listener(relay_sock, s, ports[i], 4, kind);
        /* IPv6 only where the namespace has it; without ::1 the program simply cannot use IPv6. */
        int s6 = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (s6 < 0) continue;
        int one = 1;
        setsockopt(s6, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        struct sockaddr_in6 sa6 = {.sin6_family = AF_INET6, .sin6_port = htons(ports[i]), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
        if (bind(s6, (struct sockaddr *)&sa6, sizeof sa6) < 0) {
            if (errno != EADDRNOTAVAIL) refuse("relay", "listen on [::1]:%u: %s", ports[i], strerror(errno));
            close(s6);
            continue;
        }
        if (listen(s6, 64) < 0) refuse("relay", "listen on [::1]:%u: %s", ports[i], strerror(errno));
        adopt_listener(relay_sock, s6, ports[i], 6, kind);
    }
}

static int hand_over(int relay_sock, const unsigned char *msg, size_t len, int fd, int flags) {
    char cbuf[CMSG_SPACE(sizeof(int))];
    memset(cbuf, 0, sizeof cbuf);
    struct iovec iov = {(void *)msg, len};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cm), &fd, sizeof fd);
    /* The relay reads at once; a full or dead relay is the caller's to judge. */
    return sendmsg(relay_sock, &mh, flags | MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

void relay_udp(int relay_sock, const uint16_t *ports, size_t n) {
    for (size_t i = 0; i < n; i++) {
        for (int family = 4; family <= 6; family += 2) {
            int s = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            if (s < 0) refuse("relay", "UDP socket: %s", strerror(errno));
            int rc;
            if (family == 6) {
                int one = 1;
                setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
                struct sockaddr_in6 sa6 = {.sin6_family = AF_INET6, .sin6_port = htons(ports[i]),
                                           .sin6_addr = IN6ADDR_LOOPBACK_INIT};
                rc = bind(s, (struct sockaddr *)&sa6, sizeof sa6);
                if (rc < 0 && errno == EADDRNOTAVAIL) { close(s); continue; } /* no IPv6 in the namespace */
            } else {
                struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(ports[i]),
                                         .sin_addr = {htonl(INADDR_LOOPBACK)}};
                rc = bind(s, (struct sockaddr *)&sa, sizeof sa);
            }
            if (rc < 0) refuse("relay", "bind UDP %s:%u in the new network namespace: %s",
                               family == 6 ? "[::1]" : "127.0.0.1", ports[i], strerror(errno));
            unsigned char msg[4] = {(unsigned char)(ports[i] & 0xff), (unsigned char)(ports[i] >> 8),
                                    (unsigned char)family, 'U'};
            /* Blocking, as a listener is: the relay's socket queues at most net.unix.max_dgram_qlen messages (10
             * here), and a socket it never took would leave the port free for the program's own bind. */
            if (hand_over(relay_sock, msg, sizeof msg, s, 0) < 0)
                refuse("relay", "the UDP socket on port %u could not be handed to the relay: %s", ports[i],
                       strerror(errno));
            close(s); /* the relay holds it now; the program's own binds on this port fail with EADDRINUSE */
        }
    }
}

