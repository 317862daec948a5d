/*
 * Per-decision records. The program's own seccomp program answers a denied call with EPERM; when the plan
 * asks for records, the program child rewrites those answers into SECCOMP_RET_USER_NOTIF and installs the
 * program with a listener, which init takes from it (pidfd_getfd) before the program is exec'd. Init then
 * answers every notification with EPERM itself, so the program sees exactly what it saw before, and keeps a
 * bounded record: a count per syscall number and the latest few calls with their first arguments. Only
 * denials are notified, so deciding on the raw arguments is safe (nothing is allowed on them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "decisions.h"
#include "inject.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define RET_EPERM (SECCOMP_RET_ERRNO | 1u)
#define MAX_NR 1024
#define RING 16

struct sample { unsigned nr; unsigned pid; unsigned long long a0, a1, a2; };

static unsigned counts[MAX_NR];
static unsigned long long total;
static struct sample ring[RING];
static unsigned ring_next, ring_used;

void decisions_patch(struct filter *f) {
    for (unsigned i = 0; i < f->len; i++) {
        struct sock_filter *in = &f->insns[i];
        if (in->code == (BPF_RET | BPF_K) && in->k == RET_EPERM) in->k = SECCOMP_RET_USER_NOTIF;
    }
}

int decisions_open(pid_t child) {
    int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
    if (pidfd < 0) return -1;
    /* The child's stdin exists: taking it proves ptrace-level access before anything depends on it. */
    int probe = (int)syscall(SYS_pidfd_getfd, pidfd, 0, 0);
    if (probe < 0) { close(pidfd); return -1; }
    close(probe);
    return pidfd;
}

static int is_listener(int fd) {
    __u64 id = 0;
    return ioctl(fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0 && errno == ENOENT;
}

int decisions_take(int pidfd, int fdnum) {
    struct timespec pause = {0, 50000};
    for (int i = 0; i < 4000; i++) { /* at most ~0.2 s: the child installs right after its go-ahead */
        int fd = (int)syscall(SYS_pidfd_getfd, pidfd, fdnum, 0);
        if (fd >= 0) {
            if (is_listener(fd)) return fd;
            close(fd);
        } else if (errno != EBADF) {
            return -1;
        }
        nanosleep(&pause, NULL);
    }
    return -1;
}

static void note(unsigned nr, unsigned pid, unsigned long long a0, unsigned long long a1, unsigned long long a2) {
    total++;
    if (nr < MAX_NR) counts[nr]++;
    ring[ring_next] = (struct sample){nr, pid, a0, a1, a2};
    ring_next = (ring_next + 1) % RING;
    if (ring_used < RING) ring_used++;
}

void decisions_intake(int relay_sock) {
    struct inject_denial d;
    ssize_t n;
    while ((n = recv(relay_sock, &d, sizeof d, MSG_DONTWAIT)) > 0)
        if (n == (ssize_t)sizeof d && d.tag[3] == 'D') note(d.nr, d.pid, d.a0, d.a1, d.a2);
}

int decisions_serve(int listener) {
    /* Buffers as large as this kernel says its structures are (never smaller than ours). */
    static struct seccomp_notif_sizes sizes;
    static int have_sizes;
    if (!have_sizes) {
        if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) return -1;
        have_sizes = 1;
    }
    union { struct seccomp_notif n; unsigned char raw[512]; } req;
    union { struct seccomp_notif_resp r; unsigned char raw[512]; } resp;
    if (sizes.seccomp_notif > sizeof req || sizes.seccomp_notif_resp > sizeof resp) return -1;
    memset(&req, 0, sizeof req);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req.n) < 0) {
        return errno == ENOENT || errno == EINTR ? 0 : -1; /* the caller died or was interrupted */
    }
    /* With LOOPBACK_INJECT merged into this filter the relay holds the listener (inject_share), so init serves
     * it only when that hand-over failed: a trapped connect is then answered EPERM and recorded like a denial. */
    struct seccomp_data *d = &req.n.data;
    note((unsigned)d->nr, req.n.pid, d->args[0], d->args[1], d->args[2]);
    memset(&resp, 0, sizeof resp);
    resp.r.id = req.n.id;
    resp.r.error = -EPERM;
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp.r) < 0 && errno != ENOENT) return -1;
    return 0;
}

void decisions_report(int report_w) {
    char buf[4096];
    size_t used = (size_t)snprintf(buf, sizeof buf, "decisions:%llu:", total);
    for (unsigned nr = 0; nr < MAX_NR && used < sizeof buf - 32; nr++) {
        if (counts[nr]) used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%u=%u",
                                                 buf[used - 1] == ':' ? "" : ",", nr, counts[nr]);
    }
    buf[used++] = '\n';
    if (write(report_w, buf, used) < 0) return;
    for (unsigned i = 0; i < ring_used; i++) {
        struct sample *s = &ring[(ring_next + RING - ring_used + i) % RING];
        int n = snprintf(buf, sizeof buf, "decision:%u:%u:%llu:%llu:%llu\n", s->nr, s->pid, s->a0, s->a1, s->a2);
        if (n < 0 || write(report_w, buf, (size_t)n) < 0) return;
    }
}
