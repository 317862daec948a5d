/*
 * Canaries: right before execve, already inside every guest-side layer (view, Landlock, seccomp, identity), the
 * program child attempts one action per prevented domain that the plan must deny. Each denial is reported to
 * the host bound to the launch's nonce; an action that succeeds means the boundary is not what the plan says,
 * so the launch is refused before the program runs. The targets need little from the host: the view's root
 * is never granted unless "/" is (the host then asks for no canary), the guest has no network device, and
 * the plan names the denied call to try and the hard ceiling it claims (R_CANARY_SYSCALL, R_CANARY_RLIMIT).
 * Each attempt counts as denied only on the answer of the mechanism that enforces its domain; the host asks
 * for none whose calls the launch's own syscall policy would refuse first (runtime/GuestCanaries).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "canary.h"
#include "proto.h"

static const char *ename(int err) {
    return strerrorname_np(err) ? strerrorname_np(err) : "?";
}

static size_t append(char *out, size_t cap, size_t at, const char *domain, int err) {
    int n = snprintf(out + at, at < cap ? cap - at : 0, "canary.%s=denied:%s\n", domain, ename(err));
    return n > 0 ? at + (size_t)n : at;
}

static int escaped(char *out, size_t cap, const char *domain, const char *what) {
    snprintf(out, cap, "%s: the canary %s inside the boundary", domain, what);
    return -1;
}

/* Only the filter answers EPERM: the host names calls (the first this architecture has is tried) that, with every argument -1 (a bad descriptor, an
 * unmapped pointer, impossible flags), changes nothing and needs no capability (lower/CanaryCalls). */
static int syscall_canary(const struct plan *p, char *out, size_t cap, int *err) {
    long r = syscall((long)p->canary_syscall, -1L, -1L, -1L, -1L, -1L, -1L);
    *err = errno;
    if (r == -1 && *err == EPERM) return 0;
    char what[160];
    snprintf(what, sizeof what, "called %s (number %u here), which returned %s", p->canary_syscall_name, p->canary_syscall,
             r == -1 ? ename(*err) : "success");
    return escaped(out, cap, "syscall", what);
}

/* One DNS query datagram (A canary.invalid) to the plan's address: 198.18.0.53:53, RFC 2544's benchmarking range,
 * never a resolver, never on a link. The guest has no network device, only its loopback, so its kernel finds no
 * route and answers ENETUNREACH before any packet exists; nothing of the agent's is involved (its relay is TCP
 * on loopback). A datagram that is sent, or any other answer, means the guest is not what the plan says. */
static int names_canary(const struct plan *p, char *out, size_t cap, int *err) {
    static const unsigned char query[] = {0xa5, 0x5a, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 6, 'c', 'a', 'n', 'a', 'r', 'y',
                                          7, 'i', 'n', 'v', 'a', 'l', 'i', 'd', 0, 0, 1, 0, 1};
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ssize_t r = -1;
    *err = errno;
    if (s >= 0) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(p->canary_ns_port)};
        a.sin_addr.s_addr = htonl(p->canary_ns_addr);
        r = sendto(s, query, sizeof query, 0, (struct sockaddr *)&a, sizeof a);
        *err = errno;
        close(s);
    }
    if (s >= 0 && r < 0 && *err == ENETUNREACH) return 0;
    char what[96], to[INET_ADDRSTRLEN];
    struct in_addr ia = {htonl(p->canary_ns_addr)};
    inet_ntop(AF_INET, &ia, to, sizeof to);
    if (s < 0) snprintf(what, sizeof what, "could not make a UDP socket (%s)", ename(*err));
    else if (r >= 0)
        snprintf(what, sizeof what, "sent a DNS datagram to %s:%u (a route exists)", to, p->canary_ns_port);
    else snprintf(what, sizeof what, "met %s sending to %s:%u, not ENETUNREACH", ename(*err), to, p->canary_ns_port);
    return escaped(out, cap, "name_resolution", what);
}

/* The caller's user keyring (KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING): the guest kernel has keyrings, and
 * for one's own keyring the call answers its id or ENOKEY, never EPERM; only the baseline filter does. */
static int keyring_canary(char *out, size_t cap, int *err) {
    long r = syscall(SYS_keyctl, 0L, -4L, 0L);
    *err = errno;
    if (r < 0 && *err == EPERM) return 0;
    return escaped(out, cap, "credential", r >= 0 ? "read the user keyring's id" : "met another error than the "
                   "filter's EPERM");
}

/* The hard limit the plan claims, raised by one: the program has no CAP_SYS_RESOURCE, so the kernel answers
 * EPERM. A hard limit found above the claimed ceiling means the ceiling is not in force: as open as a raise. */
static int resource_canary(const struct plan *p, char *out, size_t cap, int *err) {
    struct rlimit rl;
    char what[128];
    *err = 0;
    if (getrlimit((int)p->canary_rl_resource, &rl) < 0 || rl.rlim_max == RLIM_INFINITY
        || (uint64_t)rl.rlim_max > p->canary_rl_hard) {
        snprintf(what, sizeof what, "found the hard limit of resource %u above the plan's %llu", p->canary_rl_resource,
                 (unsigned long long)p->canary_rl_hard);
        return escaped(out, cap, "resource", what);
    }
    struct rlimit up = {rl.rlim_cur, rl.rlim_max + 1};
    int rc = setrlimit((int)p->canary_rl_resource, &up);
    *err = errno;
    if (rc < 0 && *err == EPERM) return 0;
    snprintf(what, sizeof what, "%s the hard limit of resource %u", rc == 0 ? "raised" : "met another error raising",
             p->canary_rl_resource);
    return escaped(out, cap, "resource", what);
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int canary_run(const struct plan *p, char *out, size_t cap) {
    long long t0 = now_ns();
    int n = snprintf(out, cap, "canary_nonce=%s\n", p->canary_nonce);
    size_t at = n > 0 ? (size_t)n : 0;
    if (p->canaries & CANARY_FS_READ) {
        int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
            close(fd);
            return escaped(out, cap, "filesystem_read", "opened the view's root for listing");
        }
        at = append(out, cap, at, "filesystem_read", errno);
    }
    if (p->canaries & CANARY_FS_WRITE) {
        char path[96];
        snprintf(path, sizeof path, "/.aasm-canary-%s", p->canary_nonce);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            close(fd);
            unlink(path);
            return escaped(out, cap, "filesystem_write", "created a file in the view's root");
        }
        at = append(out, cap, at, "filesystem_write", errno);
    }
    if (p->canaries & CANARY_EGRESS) {
        int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int err = errno;
        if (s >= 0) {
            struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(9)};
            inet_pton(AF_INET, "10.0.2.2", &a.sin_addr);
            int rc = connect(s, (struct sockaddr *)&a, sizeof a);
            err = errno;
            close(s);
            /* connected, or a packet left the guest and was refused: either way there was a network */
            if (rc == 0 || err == ECONNREFUSED || err == ETIMEDOUT)
                return escaped(out, cap, "network_egress", "reached 10.0.2.2 (a network device exists)");
        }
        at = append(out, cap, at, "network_egress", err);
    }
    if (p->canaries & CANARY_PROCESS) {
        pid_t k = fork();
        if (k == 0) _exit(0);
        if (k > 0) {
            waitpid(k, NULL, 0);
            return escaped(out, cap, "process_creation", "created a process (fork succeeded)");
        }
        if (errno != EPERM) return escaped(out, cap, "process_creation", "met another error than the filter's EPERM");
        at = append(out, cap, at, "process_creation", errno);
    }
    int err;
    if (p->canaries & CANARY_SYSCALL) {
        if (syscall_canary(p, out, cap, &err) < 0) return -1;
        at = append(out, cap, at, "syscall", err);
    }
    if (p->canaries & CANARY_NAMES) {
        if (names_canary(p, out, cap, &err) < 0) return -1;
        at = append(out, cap, at, "name_resolution", err);
    }
    if (p->canaries & CANARY_KEYRING) {
        if (keyring_canary(out, cap, &err) < 0) return -1;
        at = append(out, cap, at, "credential", err);
    }
    if (p->canaries & CANARY_RESOURCE) {
        if (resource_canary(p, out, cap, &err) < 0) return -1;
        at = append(out, cap, at, "resource", err);
    }
    /* what the attempts cost this launch, measured where they ran (docs/vm.md, "Canaries") */
    snprintf(out + at, at < cap ? cap - at : 0, "canary_us=%lld\n", (now_ns() - t0) / 1000);
    return 0;
}
