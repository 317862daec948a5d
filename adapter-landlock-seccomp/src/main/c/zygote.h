/* The pre-forked launcher (zygote.c, PROTOCOL.md "Zygote"). */
#ifndef AASM_ZYGOTE_H
#define AASM_ZYGOTE_H

/* Requests (supervisor -> zygote) and replies (zygote -> supervisor): one SOCK_SEQPACKET message each,
 * starting u32 op, u32/i32 a, u32/i32 b, little-endian (the host's order: both ends run on this host). */
#define ZYGOTE_OP_LAUNCH 1 /* request: spec after the 12 bytes, SCM_RIGHTS stdin/stdout/stderr[/channel]; reply: pid, errno */
#define ZYGOTE_OP_SIGNAL 2 /* request: pid, signal (only to an unreaped child of ours); no reply */
#define ZYGOTE_OP_EXITED 3 /* reply only: pid, wait status */

/* Connects to `unix:<path>` and serves until the supervisor's end closes; each child returns launch(spec)
 * as its exit status; `spare_ahead`: one child is kept forked ahead of the next request. Returns only on a
 * failed start. */
int zygote_serve(const char *spec, int spare_ahead, int (*launch)(const char *spec));

#endif
