/* Per-decision records: denials of the program's seccomp filter answered by init (PROTOCOL.md "Decisions"). */
#ifndef AASM_DECISIONS_H
#define AASM_DECISIONS_H

#include <sys/types.h>

#include "plan.h"

/* Program child: turns the filter's EPERM answers into notifications the listener's holder answers. */
void decisions_patch(struct filter *f);

/* Init: whether it may take descriptors from the child at all (pidfd_getfd). Returns a pidfd or -1. */
int decisions_open(pid_t child);

/* Init: takes the child's listener at fd number fdnum once it exists (bounded wait). Returns it or -1. */
int decisions_take(int pidfd, int fdnum);

/* Init: answers one pending notification with EPERM and records it. Returns -1 when the listener is done. */
int decisions_serve(int listener);

/* Init, with the listener shared with the relay: records the denials the relay answered (its 'D' messages on
 * relay_sock, inject.h), as many as are waiting; never blocks. */
void decisions_intake(int relay_sock);

/* Init: the summary lines (a total, counts per syscall number, the latest denials), written once. */
void decisions_report(int report_w);

#endif
