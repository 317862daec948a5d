/*
 * Canaries: right before execve, already inside every guest-side layer (view, Landlock, seccomp, identity), the
 * program child attempts one action per prevented domain that the plan must deny. Each denial is reported to
 * the host bound to the launch's nonce; an action that succeeds means the boundary is not what the plan says,
 * so the launch is refused before the program runs. The targets need no help from the host: the view's root
 * is never granted unless "/" is (the host then asks for no canary), and the guest has no network device.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "canary.h"
#include "proto.h"

static size_t append(char *out, size_t cap, size_t at, const char *domain, int err) {
    int n = snprintf(out + at, at < cap ? cap - at : 0, "canary.%s=denied:%s\n", domain, strerrorname_np(err)
                     ? strerrorname_np(err) : "?");
    return n > 0 ? at + (size_t)n : at;
}

static int escaped(char *out, size_t cap, const char *domain, const char *what) {
    snprintf(out, cap, "%s: the canary %s inside the boundary", domain, what);
    return -1;
}

int canary_run(const struct plan *p, char *out, size_t cap) {
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
    return 0;
}
