/* The canaries of one launch (proto.h, CANARY_*): attempted by the program child inside its boundary. */
#ifndef AASM_GUEST_CANARY_H
#define AASM_GUEST_CANARY_H

#include <stddef.h>

#include "plan.h"

/*
 * Attempts each canary of the plan. 0 when every one was denied, with "canary_nonce=..\ncanary.<domain>=denied:<errno>"
 * lines in out; -1 when one got through, with "<domain>: <what it did>" in out (the launch must not go on).
 */
int canary_run(const struct plan *p, char *out, size_t cap);

#endif
