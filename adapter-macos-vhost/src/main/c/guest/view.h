/* The program's filesystem view, built under VIEW_ROOT from the plan's shares and view operations. */
#ifndef AASM_GUEST_VIEW_H
#define AASM_GUEST_VIEW_H

#include <stddef.h>

#include "plan.h"

#define VIEW_ROOT "/v"
#define SHARE_ROOT "/.s"

/* Mounts every share and builds the view; 0 on success, else -1 with "token:detail" in err. */
int view_build(const struct plan *p, char *err, size_t errcap);

#endif
