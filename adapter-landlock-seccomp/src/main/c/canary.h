/* Canaries: the boundary tested from inside before the program runs (PROTOCOL.md "Canaries"). */
#ifndef AASM_CANARY_H
#define AASM_CANARY_H

#include <stdint.h>
#include <sys/types.h>

#include "plan.h"

/*
 * Attempts one forbidden action per kind in c->kinds: RESOURCE and SIGNAL in the calling process, before
 * any filter; the others in one throwaway child that installs the plan's seccomp filters on top of
 * everything the caller has already installed. Returns the kinds that were
 * denied; *ran is 0 when the child could not run or report (then nothing is known).
 */
uint32_t canary_run(const struct canary *c, const struct filter *filters, size_t nfilters, pid_t outside, int *ran);

/* The domains of the kinds in mask, comma-separated, for messages. */
void canary_names(uint32_t mask, char *buf, size_t cap);

#endif
