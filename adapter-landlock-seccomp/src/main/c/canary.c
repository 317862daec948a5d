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
#include <signal.h>
#include <stdio.h>
#include <string.h>
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

static int process_denied(void) {
    pid_t k = fork();
    if (k == 0) _exit(0);
    if (k > 0) {
        waitpid(k, NULL, 0);
        return 0;
    }
    return errno == EPERM;
}

/* Signal 0 to a process outside the boundary's Landlock domain: scoping answers EPERM. */
static int signal_denied(pid_t outside) {
    return kill(outside, 0) < 0 && errno == EPERM;
}

static void child(const struct canary *c, const struct filter *filters, size_t nfilters, pid_t outside) {
    for (size_t i = 0; i < nfilters; i++) {
        struct sock_fprog prog = {filters[i].len, filters[i].insns};
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, filters[i].flags, &prog) < 0) _exit(255);
    }
    uint32_t denied = 0;
    if ((c->kinds & CANARY_FS_READ) && read_denied(c->read_path)) denied |= CANARY_FS_READ;
    if ((c->kinds & CANARY_FS_WRITE) && write_denied(c->write_path)) denied |= CANARY_FS_WRITE;
    if ((c->kinds & CANARY_EGRESS) && egress_denied(c->port)) denied |= CANARY_EGRESS;
    if ((c->kinds & CANARY_SYSCALL) && syscall_denied(c->syscall_nr)) denied |= CANARY_SYSCALL;
    if ((c->kinds & CANARY_PROCESS) && process_denied()) denied |= CANARY_PROCESS;
    if ((c->kinds & CANARY_SIGNAL) && signal_denied(outside)) denied |= CANARY_SIGNAL;
    _exit((int)denied);
}

uint32_t canary_run(const struct canary *c, const struct filter *filters, size_t nfilters, pid_t outside, int *ran) {
    *ran = 0;
    pid_t k = fork();
    if (k < 0) return 0;
    if (k == 0) child(c, filters, nfilters, outside);
    int st;
    while (waitpid(k, &st, 0) < 0)
        if (errno != EINTR) return 0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) == 255) return 0;
    *ran = 1;
    return (uint32_t)WEXITSTATUS(st) & c->kinds;
}

void canary_names(uint32_t mask, char *buf, size_t cap) {
    static const char *names[] = {"filesystem_read", "filesystem_write", "network_egress", "syscall",
                                  "process_creation", "ipc"};
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < 6; i++) {
        if (!(mask & (1u << i))) continue;
        int n = snprintf(buf + used, cap - used, "%s%s", used ? "," : "", names[i]);
        if (n < 0 || (size_t)n >= cap - used) return;
        used += (size_t)n;
    }
}
