/*
 * The proxy port's relay (egress.h). The listeners are the agent's, made before the program is forked and
 * close-on-exec, so the program can neither inherit nor take the port; what it sends leaves the guest only as
 * frames the host hands to the launch's mediation session, which admits granted destinations alone.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "egress.h"
#include "frame.h"

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int listener(int family, int port) {
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    int rc;
    if (family == AF_INET) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    } else {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    }
    if (rc < 0 || listen(fd, 64) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int net_listen(struct net *n, int port, char *err, size_t cap) {
    memset(n, 0, sizeof *n);
    n->lfd[0] = listener(AF_INET, port);
    if (n->lfd[0] < 0) return snprintf(err, cap, "proxy_port:127.0.0.1:%d: %s", port, strerror(errno)), -1;
    /* a guest kernel without IPv6 has no [::1] for a program to reach either */
    n->lfd[1] = listener(AF_INET6, port);
    return 0;
}

static void send_id(int port, int type, uint32_t id) {
    unsigned char b[4];
    put32(b, id);
    frame_send(port, type, b, 4);
}

static void send_ack(int port, int type, uint32_t id, uint32_t count) {
    unsigned char b[8];
    put32(b, id);
    put32(b + 4, count);
    frame_send(port, type, b, 8);
}

static void release_if_done(struct net_stream *s) {
    if (s->used && s->in_eof && s->out_eof && s->qoff == s->qlen) {
        close(s->fd);
        free(s->q);
        memset(s, 0, sizeof *s);
    }
}

static void accept_one(struct net *n, int port, int lfd) {
    int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    for (int i = 0; i < NET_MAX_STREAMS; i++) {
        struct net_stream *s = &n->s[i];
        if (s->used) continue;
        memset(s, 0, sizeof *s);
        s->used = 1;
        s->fd = fd;
        s->id = ++n->next_id;
        send_id(port, F_NET_OPEN, s->id);
        return;
    }
    close(fd); /* more than NET_MAX_STREAMS open connections: this one ends at once */
}

static void end_out(int port, struct net_stream *s) {
    if (!s->out_eof) send_id(port, F_NET_OUT_EOF, s->id);
    s->out_eof = 1;
}

static void read_program(int port, struct net_stream *s) {
    static unsigned char buf[GUEST_MAX_PAYLOAD];
    size_t room = NET_WINDOW - s->unacked;
    if (room > GUEST_MAX_PAYLOAD - 4) room = GUEST_MAX_PAYLOAD - 4;
    ssize_t r = read(s->fd, buf + 4, room);
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (r <= 0) {
        end_out(port, s);
        return;
    }
    put32(buf, s->id);
    s->unacked += (uint32_t)r;
    frame_send(port, F_NET_OUT, buf, (size_t)r + 4);
}

static void write_program(int port, struct net_stream *s) {
    size_t wrote = 0;
    while (s->qoff < s->qlen) {
        ssize_t w = write(s->fd, s->q + s->qoff, s->qlen - s->qoff);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) break;
        if (w < 0) { /* the program closed its socket: drop the rest, but give the host its credit back */
            wrote += s->qlen - s->qoff;
            s->qoff = s->qlen;
            s->dead = 1;
            end_out(port, s);
            break;
        }
        s->qoff += (size_t)w;
        wrote += (size_t)w;
    }
    if (s->qoff == s->qlen) s->qoff = s->qlen = 0;
    if (wrote) send_ack(port, F_NET_OUT_ACK, s->id, (uint32_t)wrote);
    if (s->in_eof && s->qlen == 0 && !s->dead) shutdown(s->fd, SHUT_WR);
}

int net_pollfds(struct net *n, struct pollfd *pf, int *owner, int max) {
    int k = 0;
    for (int i = 0; i < 2 && k < max; i++)
        if (n->lfd[i] >= 0) {
            pf[k] = (struct pollfd){n->lfd[i], POLLIN, 0};
            owner[k++] = -1 - i;
        }
    for (int i = 0; i < NET_MAX_STREAMS && k < max; i++) {
        struct net_stream *s = &n->s[i];
        if (!s->used) continue;
        short ev = 0;
        if (!s->out_eof && s->unacked < NET_WINDOW) ev |= POLLIN;
        if (s->qlen > s->qoff) ev |= POLLOUT;
        if (!ev) continue;
        pf[k] = (struct pollfd){s->fd, ev, 0};
        owner[k++] = i;
    }
    return k;
}

void net_ready(struct net *n, int port, const struct pollfd *pf, const int *owner, int count) {
    for (int k = 0; k < count; k++) {
        if (!pf[k].revents) continue;
        if (owner[k] < 0) {
            accept_one(n, port, pf[k].fd);
            continue;
        }
        struct net_stream *s = &n->s[owner[k]];
        if (!s->used || s->fd != pf[k].fd) continue;
        if (pf[k].revents & POLLOUT || (pf[k].revents & (POLLERR | POLLHUP) && s->qlen > s->qoff)) write_program(port, s);
        /* without credit the socket is not read, even at its end: the end is seen once the host has caught up */
        if (s->used && !s->out_eof && s->unacked < NET_WINDOW && pf[k].revents & (POLLIN | POLLHUP | POLLERR))
            read_program(port, s);
        release_if_done(s);
    }
}

static struct net_stream *find(struct net *n, uint32_t id) {
    for (int i = 0; i < NET_MAX_STREAMS; i++)
        if (n->s[i].used && n->s[i].id == id) return &n->s[i];
    return NULL;
}

int net_host_frame(struct net *n, int port, int type, const unsigned char *payload, size_t len) {
    if (type != F_NET_IN && type != F_NET_IN_EOF && type != F_NET_IN_ACK) return 0;
    if (len < 4) return 1;
    struct net_stream *s = find(n, get32(payload));
    if (!s) return 1; /* a stream already released: nothing to deliver to */
    if (type == F_NET_IN) {
        size_t count = len - 4;
        if (s->dead || s->in_eof) {
            send_ack(port, F_NET_OUT_ACK, s->id, (uint32_t)count);
        } else if (s->qlen - s->qoff + count > NET_WINDOW) { /* the host broke its credit: end the stream */
            s->dead = 1;
            s->qoff = s->qlen = 0;
            shutdown(s->fd, SHUT_RDWR);
            end_out(port, s);
        } else {
            if (s->qoff) { /* keep the buffer at most one window long */
                memmove(s->q, s->q + s->qoff, s->qlen - s->qoff);
                s->qlen -= s->qoff;
                s->qoff = 0;
            }
            unsigned char *q = realloc(s->q, s->qlen + count);
            if (!q) return 1;
            s->q = q;
            memcpy(q + s->qlen, payload + 4, count);
            s->qlen += count;
        }
    } else if (type == F_NET_IN_EOF) {
        s->in_eof = 1;
        if (s->qlen == s->qoff && !s->dead) shutdown(s->fd, SHUT_WR);
    } else if (len >= 8) {
        uint32_t c = get32(payload + 4);
        s->unacked -= c < s->unacked ? c : s->unacked;
    }
    release_if_done(s);
    return 1;
}
