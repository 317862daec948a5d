/* The loopback relay (relay.c, PROTOCOL.md: RELAY_TCP_PORT). */
#ifndef AASM_RELAY_H
#define AASM_RELAY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "plan.h"

/* Forks the relay in the current (the host's) network namespace; *init_end receives init's end of the pair. */
pid_t relay_start(int *init_end);

/* Listens on 127.0.0.1 and (where present) [::1] for each port in the current namespace; refuses on error. */
size_t relay_listen(const uint16_t *ports, size_t n, int *fds, uint16_t *fports, int *families);

/* Binds 127.0.0.1 and (where present) [::1] UDP sockets for each port in the current namespace and hands
 * them to the relay, which forwards each client's datagrams to the host's loopback and the replies back. */
void relay_udp(int relay_sock, const uint16_t *ports, size_t n);

/* Accepts every pending connection on a listener and hands each to the relay. */
void relay_pass(int relay_sock, int listener, uint16_t port, int family);

#endif
