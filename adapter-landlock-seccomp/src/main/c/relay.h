/* The loopback relay (relay.c, PROTOCOL.md: RELAY_TCP_PORT). */
#ifndef AASM_RELAY_H
#define AASM_RELAY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "plan.h"

/* Listener kinds: a granted loopback port (to the host's same port) or the supervisor's proxy (RELAY_PROXY). */
enum { RELAY_KIND_LOOPBACK = 'L', RELAY_KIND_PROXY = 'P' };

/* The hand-off capability a proxied connection announces before the session's credential (PROTOCOL.md, "Hand-off"):
 * 0xFF 'A' 'H' version. Version 1: marker messages 'P' and 'H' (upstream and report sockets), the 24-byte report. */
#define RELAY_HANDOFF_VERSION 1

/* Forks the relay in the current (the host's) network namespace; *init_end receives init's end of the pair.
 * With a proxy socket (path non-NULL), connections of kind PROXY go there, each starting with the preamble. */
pid_t relay_start(int *init_end, const char *proxy_path, const unsigned char *preamble, size_t preamble_len);

/* Launcher: listens on 127.0.0.1 and (where present) [::1] for each port in the current namespace and hands each
 * listener to the relay, which accepts on it itself; refuses on error. */
void relay_listen(int relay_sock, const uint16_t *ports, size_t n, int kind);

/* Binds 127.0.0.1 and (where present) [::1] UDP sockets for each port in the current namespace and hands
 * them to the relay, which forwards each client's datagrams to the host's loopback and the replies back. */
void relay_udp(int relay_sock, const uint16_t *ports, size_t n);

#endif
