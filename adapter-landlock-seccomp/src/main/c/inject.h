/* Granted loopback ports without a relay hop: connect() answered with an injected host socket (inject.c,
 * PROTOCOL.md "Injection"). */
#ifndef AASM_INJECT_H
#define AASM_INJECT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/seccomp.h>

#include "plan.h"

/* Launcher, before the relay forks: the granted ports the relay may inject (the relay's own rule). */
void inject_ports(const uint16_t *ports, size_t n);

/* Program child, after Landlock, before the plan's filters: installs the connect trap with a listener and hands
 * the listener to the relay over relay_sock. Refuses when the filter cannot be installed. */
void inject_install(int relay_sock);

/* Program child, with DECISIONS: appends the trap to the decision filter (whose denials already notify), so one
 * listener serves both (a task may have only one). Returns -1 when the filter cannot take it. */
int inject_merge(struct filter *f);

/* Init: connect notifications received on the shared listener go to the relay (see decisions_serve). */
void inject_share(int relay_sock, int listener);
int inject_forward(const struct seccomp_notif *n);

/* Relay: receives and answers one pending connect notification. Returns -1 when the listener is done. */
int inject_serve(int listener);

/* Relay: answers one connect notification; pidfd: the caller, when init received it (else -1: received here). */
int inject_handle(int listener, const struct seccomp_notif *n, int pidfd);

#endif
