/*
 * Canaries. After the boundary is installed and before execve, a child inside the very same boundary
 * (it inherits the Landlock domain, the namespaces, the emptied capability sets and no_new_privs, and
 * installs the same seccomp filters) attempts one action per domain the plan prevents. Each attempt is
 * harmless when denied and observable when not; the child reports which were denied through its exit
 * status, the only channel every filter allows. The program itself never runs a canary.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include "canary.h"

static int read_denied(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 1;
    close(fd);
    return 0;
}

/* O_EXCL: a file that appears is this attempt's, which the supervisor sees from outside. */
static int write_denied(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return 1;
    close(fd);
    return 0;
}

/* The supervisor listens on this port of the host's loopback; a connection that succeeds reached it. */
static int egress_denied(uint32_t port) {
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int r = connect(s, (struct sockaddr *)&a, sizeof a);
    close(s);
    return r < 0;
}

/* Every argument invalid (-1: a bad descriptor, an unmapped pointer, impossible flags): a call the filter
 * lets through fails with EBADF, EFAULT or EINVAL and changes nothing; only the filter answers EPERM. */
static int syscall_denied(uint32_t nr) {
    long r = syscall((long)nr, -1L, -1L, -1L, -1L, -1L, -1L);
    return r == -1 && errno == EPERM;
}

/* The raw clone(2) fork(2) is made of (SIGCHLD, no CLONE_THREAD: a new process), not libc's fork(): this runs in
 * the canary child, which shares its parent's memory, where fork()'s handlers and locks must not run. A grandchild
 * that appears has a copy of that memory of its own and exits at once. */
static int process_denied(void) {
    long k = syscall(SYS_clone, (long)SIGCHLD, 0L, 0L, 0L, 0L);
    if (k == 0) _exit(0);
    if (k > 0) {
        while (waitpid((pid_t)k, NULL, 0) < 0 && errno == EINTR) {}
        return 0;
    }
    return errno == EPERM;
}

/* Signal 0 to a process outside the boundary's Landlock domain: scoping answers EPERM. */
static int signal_denied(pid_t outside) {
    return kill(outside, 0) < 0 && errno == EPERM;
}

/* One DNS query datagram (an A query for canary.invalid) to a resolver address outside the host:
 * 198.18.0.53, from RFC 2544's benchmarking range, so never a real resolver nor on a link of this host. The
 * plan denies UDP sockets outside a network namespace of the program's own (the filter answers EPERM), and
 * inside one nothing routes out (the kernel answers ENETUNREACH). Any other failure proves nothing. */
static int names_denied(void) {
    static const unsigned char query[] = {0xa5, 0x5a, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 6, 'c', 'a', 'n', 'a', 'r', 'y',
                                          7, 'i', 'n', 'v', 'a', 'l', 'i', 'd', 0, 0, 1, 0, 1};
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0) return errno == EPERM;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(53)};
    a.sin_addr.s_addr = htonl(0xC6120035); /* 198.18.0.53 */
    ssize_t r = sendto(s, query, sizeof query, 0, (struct sockaddr *)&a, sizeof a);
    int err = errno;
    close(s);
    return r < 0 && (err == EPERM || err == ENETUNREACH);
}

/* The caller's user keyring: kernel keyrings are not namespaced, so it holds the invoking user's keys
 * whatever the view. The baseline filter of every confined launch denies keyctl with EPERM; the call itself
 * never answers EPERM for one's own keyring (it returns its id, or ENOKEY). */
static int keyring_denied(void) {
    long r = syscall(SYS_keyctl, 0L /* KEYCTL_GET_KEYRING_ID */, -4L /* KEY_SPEC_USER_KEYRING */, 0L);
    return r < 0 && errno == EPERM;
}

/* A hard rlimit the plan lowered, raised by one. Only CAP_SYS_RESOURCE in the initial user namespace may
 * raise a hard limit, and the launcher has dropped it: the kernel answers EPERM. A hard limit already above
 * the plan's means the ceiling is not in force, which is as open as a raise that succeeds. */
static int resource_denied(uint32_t res, uint64_t planned) {
    struct rlimit rl;
    if (getrlimit((int)res, &rl) < 0 || rl.rlim_max == RLIM_INFINITY || (uint64_t)rl.rlim_max > planned) return 0;
    struct rlimit up = {rl.rlim_cur, rl.rlim_max + 1};
    if (setrlimit((int)res, &up) == 0) return 0;
    return errno == EPERM;
}

/* The kinds the child attempts under the filters, in the order of the bits of its exit status. An exit status
 * holds 8 bits and 255 means "could not run", so the child reports at most 7 kinds; the two that need no
 * filter (RESOURCE: the rlimit and the missing capability; SIGNAL: Landlock's scope) are attempted by the
 * caller itself, which also keeps a syscall policy from answering them EPERM for another reason. */
static const uint32_t CHILD_KINDS[7] = {CANARY_FS_READ, CANARY_FS_WRITE, CANARY_EGRESS, CANARY_SYSCALL,
                                        CANARY_PROCESS, CANARY_NAMES, CANARY_KEYRING};

static int attempt(const struct canary *c, uint32_t kind) {
    switch (kind) {
    case CANARY_FS_READ: return read_denied(c->read_path);
    case CANARY_FS_WRITE: return write_denied(c->write_path);
    case CANARY_EGRESS: return egress_denied(c->port);
    case CANARY_SYSCALL: return syscall_denied(c->syscall_nr);
    case CANARY_PROCESS: return process_denied();
    case CANARY_NAMES: return names_denied();
    case CANARY_KEYRING: return keyring_denied();
    default: return 0;
    }
}

struct child_job { const struct canary *c; const struct filter *filters; size_t nfilters; };

/* The canary child. It shares the caller's memory (and errno) while the caller is suspended, so it only makes
 * system calls through thin libc wrappers: no malloc, no stdio, no locks, and it writes nothing of the caller's.
 * Its filters, like its Landlock domain, no_new_privs and capabilities, are its own task's: seccomp(2) without
 * TSYNC attaches to the calling task only, and the other three were copied into it by clone(2). */
static int child(void *arg) {
    const struct child_job *job = arg;
    for (size_t i = 0; i < job->nfilters; i++) {
        struct sock_fprog prog = {job->filters[i].len, job->filters[i].insns};
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, job->filters[i].flags, &prog) < 0) _exit(255);
    }
    int bits = 0;
    for (int i = 0; i < 7; i++)
        if ((job->c->kinds & CHILD_KINDS[i]) && attempt(job->c, CHILD_KINDS[i])) bits |= 1 << i;
    _exit(bits);
}

/* Its own stack, with an inaccessible page below it: an overflow faults instead of writing over our memory. */
#define CHILD_STACK (128 * 1024)
#define GUARD (4096)

/* The caller only waits for the canary child's exit status, so the child is created as vfork(2) creates one
 * (CLONE_VM | CLONE_VFORK): no copy of the address space, whose page tables are expensive to build on some
 * hosts (a paravirtualized guest makes a hypercall per change), and the caller resumes when the child has
 * exited. Returns the child's wait status, or -1 when it could not be created. */
static int run_child(const struct child_job *job) {
    char *stack = mmap(NULL, CHILD_STACK + GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -1;
    int st = -1;
    if (mprotect(stack + GUARD, CHILD_STACK, PROT_READ | PROT_WRITE) == 0) {
        pid_t k = clone(child, stack + GUARD + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, (void *)job);
        if (k > 0)
            while (waitpid(k, &st, 0) < 0)
                if (errno != EINTR) { st = -1; break; }
    }
    munmap(stack, CHILD_STACK + GUARD);
    return st;
}

uint32_t canary_run(const struct canary *c, const struct filter *filters, size_t nfilters, pid_t outside, int *ran) {
    *ran = 0;
    uint32_t denied = 0;
    /* In this very process, before any filter; a raise that succeeds refuses the launch anyway. */
    if ((c->kinds & CANARY_RESOURCE) && resource_denied(c->rl_res, c->rl_hard)) denied |= CANARY_RESOURCE;
    if ((c->kinds & CANARY_SIGNAL) && signal_denied(outside)) denied |= CANARY_SIGNAL;
    uint32_t wanted = 0;
    for (int i = 0; i < 7; i++) wanted |= CHILD_KINDS[i];
    if (c->kinds & wanted) {
        struct child_job job = {c, filters, nfilters};
        int st = run_child(&job);
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) == 255) return 0;
        for (int i = 0; i < 7; i++)
            if (WEXITSTATUS(st) & (1 << i)) denied |= CHILD_KINDS[i];
    }
    *ran = 1;
    return denied & c->kinds;
}

void canary_names(uint32_t mask, char *buf, size_t cap) {
    static const char *names[] = {"filesystem_read", "filesystem_write", "network_egress", "syscall",
                                  "process_creation", "ipc", "resource",
                                  "name_resolution", "credential"};
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < 9; i++) {
        if (!(mask & (1u << i))) continue;
        int n = snprintf(buf + used, cap - used, "%s%s", used ? "," : "", names[i]);
        if (n < 0 || (size_t)n >= cap - used) return;
        used += (size_t)n;
    }
}
