/* One launch: apply the plan, start the program, relay its streams and signals, report its end. */
#ifndef AASM_GUEST_RUN_H
#define AASM_GUEST_RUN_H

#include "frame.h"
#include "plan.h"

/* Runs the plan to its end over the port; every outcome is reported as a frame. */
void run_launch(int port, struct frame_reader *r, struct plan *p, long plan_ms);

#endif
