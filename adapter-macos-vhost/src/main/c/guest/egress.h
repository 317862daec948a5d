/*
 * The guest's only way out (PROTOCOL.md, "Egress"): the agent listens on the proxy port of the loopback and
 * carries each accepted connection over the control port as a stream of F_NET_* frames; the host joins it to
 * the launch's mediation session. Credit per direction (NET_WINDOW) keeps one stalled side from growing the
 * other's buffers or stalling the control port.
 */
#ifndef AASM_GUEST_EGRESS_H
#define AASM_GUEST_EGRESS_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

struct net_stream {
    int used, fd;
    uint32_t id;
    unsigned char *q; /* bytes from the host not yet written to the program's socket */
    size_t qlen, qoff;
    uint32_t unacked;   /* bytes sent to the host that it has not acknowledged */
    int in_eof, out_eof; /* the host said 'z'; we said 'Z' */
    int dead;            /* the program's socket failed: what the host sends is acknowledged and dropped */
};

struct net {
    int lfd[2]; /* 127.0.0.1 and [::1]; -1 when absent */
    uint32_t next_id;
    struct net_stream s[NET_MAX_STREAMS];
};

/* Listens on port (loopback only, close-on-exec); 0, or -1 with a "token:detail" reason in err. */
int net_listen(struct net *n, int port, char *err, size_t cap);
/* Adds the descriptors to poll; owner[i] says whose each is (-1, -2 listeners, else a stream index). */
int net_pollfds(struct net *n, struct pollfd *pf, int *owner, int max);
/* Handles what poll reported for the entries net_pollfds added. */
void net_ready(struct net *n, int port, const struct pollfd *pf, const int *owner, int count);
/* Handles a host frame of the F_NET_IN* family; returns 0 when the frame is not one. */
int net_host_frame(struct net *n, int port, int type, const unsigned char *payload, size_t len);

#endif
