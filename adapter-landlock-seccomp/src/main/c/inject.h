/* Granted loopback ports without a relay hop: connect() answered with an injected host socket (inject.c,
 * PROTOCOL.md "Injection"). */
#ifndef AASM_INJECT_H
#define AASM_INJECT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/seccomp.h>

#include "plan.h"

/* Launcher, before the relay forks: the granted ports the relay may inject (the relay's own rule), and how many
 * pid namespaces init's is below the relay's (1 with PID, else 0), to record a denial's pid as init sees it. */
void inject_ports(const uint16_t *ports, size_t n, int init_pid_level);

/* Program child, after Landlock, before the plan's filters: installs the connect trap with a listener and hands
 * the listener to the relay over relay_sock. Refuses when the filter cannot be installed. */
void inject_install(int relay_sock);

/* Program child, with DECISIONS: appends the trap to the decision filter (whose denials already notify), so one
 * listener serves both (a task may have only one). Returns -1 when the filter cannot take it. */
int inject_merge(struct filter *f);

/* Init: hands the decision filter's listener to the relay, which receives every notification from then on.
 * Returns 1 when the relay has it (init then neither receives nor answers; it takes the relay's denial records,
 * see inject_deny), 0 when it could not be handed (init serves the listener itself, a connect answered EPERM). */
int inject_share(int relay_sock, int listener);

/* Relay: receives and answers one pending connect notification. Returns -1 when the listener is done. */
int inject_serve(int listener);

/* Relay, with the shared listener: receives one notification; a connect is answered as inject_serve does, any
 * other is a denial of the decision filter: its record goes to init over ctl (message 'D', see below), then it is
 * answered EPERM, so a denial the program saw is always recorded first. Returns -1 when the listener is done. */
int inject_receive(int listener, int ctl);

/* A denial record from the relay to init: {0, 0, 0, 'D'}, then u32 nr, u32 pid (init's view), u64 args 0..2. */
struct inject_denial { unsigned char tag[4]; uint32_t nr, pid; uint64_t a0, a1, a2; };

/* Relay: answers one connect notification received here. */
int inject_handle(int listener, const struct seccomp_notif *n);

#endif
