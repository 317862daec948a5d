/*
 * aasm-guest-agent: PID 1 of the guest (PROTOCOL.md). It boots the guest's own userland-less system (boot.c),
 * says hello on the control port, and then waits for one plan: the host snapshots the template at exactly
 * this point. After a restore the plan arrives; the agent applies it (run.c) and reports the end. It never
 * exits (the end of PID 1 panics the guest); the host kills the VM after the exit frame.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "boot.h"
#include "filter.h"
#include "frame.h"
#include "plan.h"
#include "proto.h"
#include "run.h"

static struct plan plan;

static void idle_forever(void) {
    for (;;) pause();
}

int main(void) {
    struct boot_facts f;
    if (getpid() != 1) {
        fprintf(stderr, "aasm-guest-agent runs only as PID 1 of a guest\n");
        return 2;
    }
    /* the program runs as the caller's uid, possibly root: it must not read or trace the agent */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    boot_system(&f);
    /* the kernel may have started init without a console: keep 0-2 taken, so no pipe lands on a stdio number */
    for (int fd = open("/dev/null", O_RDWR | O_CLOEXEC); fd >= 0 && fd < 3; fd = open("/dev/null", O_RDWR | O_CLOEXEC))
        fcntl(fd, F_SETFD, 0);
    int port = boot_open_port(&f);
    if (port < 0) idle_forever(); /* the host sees no hello and gives up */
    frame_sendf(port, F_HELLO,
                "protocol=%d\nkernel=%s\nlandlock_abi=%ld\ncgroup=%d\ninit_ms=%ld\nmodules_ms=%ld\nport_ms=%ld\n"
                "problems=%s\n",
                PROTOCOL_VERSION, f.kernel, f.landlock_abi, f.cgroup, f.init_ms, f.modules_ms, f.port_ms, f.problems);
    struct frame_reader r = {0};
    for (;;) {
        int type;
        unsigned char *payload;
        size_t len;
        int got = frame_next(&r, &type, &payload, &len);
        if (got < 0) {
            frame_sendf(port, F_REFUSED, "bad_frame:a frame larger than the protocol allows");
            idle_forever();
        }
        if (got == 0) {
            long n = frame_fill(&r, port);
            if (n < 0 && errno != EINTR) idle_forever();
            if (n == 0) usleep(1000); /* no host connected yet (a template waiting for its restore) */
            continue;
        }
        if (type == F_PING) {
            frame_send(port, F_PONG, payload, len < GUEST_MAX_PAYLOAD ? len : GUEST_MAX_PAYLOAD);
            frame_consume(&r, len);
            continue;
        }
        if (type != F_PLAN) {
            frame_consume(&r, len);
            continue;
        }
        long plan_ms = boot_now_ms();
        char err[300];
        /* the plan is decoded from a copy the relay's reads will never move (records point into it) */
        static unsigned char held[HOST_MAX_PAYLOAD];
        memcpy(held, payload, len);
        frame_consume(&r, len);
        if (plan_decode(held, len, &plan, err, sizeof err) < 0 || filter_compile(&plan, err, sizeof err) < 0) {
            frame_sendf(port, F_REFUSED, "%s", err);
            idle_forever();
        }
        run_launch(port, &r, &plan, plan_ms);
        idle_forever();
    }
}
