/*
 * The shim's canaries. Sandlock runs the shim as the program, inside its sandbox and before aasm's own
 * filter; so each canary here tests sandlock's boundary alone, from the very process that becomes the
 * program. One forbidden attempt per domain the launch claims to prevent:
 *
 *   canary:read=<file>     open(O_RDONLY) of a file outside every grant        filesystem_read
 *   canary:write=<file>    creation of a file outside every write grant        filesystem_write
 *   canary:port=<n>        TCP connect to the supervisor's listener on 127.0.0.1:<n>   network_egress
 *   canary:sys=<nr>        a denied syscall, every argument -1 (changes nothing)       syscall
 *   canary:fork            fork(2) under a ceiling of one process                    process_creation
 *   canary:signal          signal 0 to sandlock's own process, outside the sandbox   ipc
 *   canary:keyring         keyctl on the caller's user keyring (sandlock's blocklist)  credential
 *   canary:rlimit=<r>:<h>  raising hard rlimit <r>, which sandlock set to <h>, by one  resource
 *
 * The record goes to canary:fifo=<path>, a FIFO the guard made and holds open for reading. It is one
 * line, written with one write(2) of less than PIPE_BUF bytes, before the program exists; the guard takes
 * the first line only and then closes the FIFO. So whatever the program later writes to the same path is
 * never read: it cannot forge the record. If the line cannot be delivered, nothing runs (125), because a
 * missing first line would leave the first line to the program.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "canary.h"

#define LINE_MAX_BYTES 1024

static char line[LINE_MAX_BYTES];
static size_t used;
static const char *escaped; /* the first domain whose canary got through */

static void note(const char *domain, int through, int err, int denied) {
    const char *verdict = through ? "passed" : denied ? "denied" : "error";
    int n = snprintf(line + used, sizeof line - used, " %s=%s/%d", domain, verdict, through ? 0 : err);
    if (n > 0 && (size_t)n < sizeof line - used) used += (size_t)n;
    if (through && !escaped) escaped = domain;
}

static void fs_read(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int err = errno;
    if (fd >= 0) close(fd);
    note("filesystem_read", fd >= 0, err, err == EACCES || err == EPERM);
}

static void fs_write(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int err = errno;
    if (fd >= 0) close(fd); /* left for the supervisor, which checks from outside that it never appears */
    /* EROFS: the read-only view, which is part of this backend's write boundary. */
    note("filesystem_write", fd >= 0, err, err == EACCES || err == EPERM || err == EROFS);
}

static void egress(int port) {
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        note("network_egress", 0, errno, errno == EACCES || errno == EPERM);
        return;
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int r = connect(s, (struct sockaddr *)&a, sizeof a);
    int err = errno;
    close(s);
    /* ECONNREFUSED: sandlock's own network mediation (with --net-allow rules) refuses so; the supervisor's
     * listener is up, so nothing else would refuse, and the supervisor checks that none arrived. */
    note("network_egress", r == 0, err, err == EACCES || err == EPERM || err == ECONNREFUSED);
}

static void denied_syscall(long nr) {
    long r = syscall(nr, -1L, -1L, -1L, -1L, -1L, -1L);
    int err = errno;
    /* Only EPERM is the filter's answer: any other error means the call reached the kernel. */
    note("syscall", r >= 0 || err != EPERM, err, 1);
}

static void process(void) {
    pid_t pid = fork();
    int err = errno;
    if (pid == 0) _exit(0);
    if (pid > 0) waitpid(pid, NULL, 0);
    note("process_creation", pid > 0, err, err == EAGAIN || err == EPERM);
}

static void signal_out(void) {
    pid_t outside = getppid(); /* sandlock's process: the sandbox is its child's, not its own */
    if (outside <= 1) {
        note("ipc", 0, ESRCH, 0);
        return;
    }
    int r = kill(outside, 0);
    int err = errno;
    note("ipc", r == 0, err, err == EPERM);
}

/* Kernel keyrings are not namespaced: the caller's user keyring holds the invoking user's keys whatever the
 * view. sandlock's default blocklist denies keyctl with EPERM; the call itself answers one's own keyring with
 * its id or ENOKEY, never EPERM. */
static void keyring(void) {
    long r = syscall(SYS_keyctl, 0L /* KEYCTL_GET_KEYRING_ID */, -4L /* KEY_SPEC_USER_KEYRING */, 0L);
    int err = errno;
    note("credential", r >= 0 || err != EPERM, err, 1);
}

/* Only CAP_SYS_RESOURCE may raise a hard limit, and sandlock's child holds none. A hard limit above the one
 * sandlock was told to set is a ceiling not in force: as open as a raise that works. */
static void rlimit_raise(const char *spec) {
    char *end;
    int res = (int)strtol(spec, &end, 10);
    uint64_t planned = *end == ':' ? strtoull(end + 1, NULL, 10) : 0;
    struct rlimit rl;
    if (getrlimit(res, &rl) < 0) {
        note("resource", 0, errno, 0);
        return;
    }
    if (rl.rlim_max == RLIM_INFINITY || (uint64_t)rl.rlim_max > planned) {
        note("resource", 1, 0, 0);
        return;
    }
    struct rlimit up = {rl.rlim_cur, rl.rlim_max + 1};
    int r = setrlimit(res, &up);
    int err = errno;
    note("resource", r == 0, err, err == EPERM);
}

int canary_run(int n, char **args) {
    const char *fifo = NULL, *nonce = NULL;
    for (int i = 0; i < n; i++) {
        if (strncmp(args[i], "canary:fifo=/", 13) == 0) fifo = args[i] + 12;
        else if (strncmp(args[i], "canary:nonce=", 13) == 0) nonce = args[i] + 13;
    }
    if (n == 0) return 0;
    if (!fifo || !nonce || strlen(nonce) > 64) {
        fprintf(stderr, "aasm: canaries asked without an evidence channel and a nonce; nothing ran\n");
        return 125;
    }
    /* Opened first: with the guard holding the read end this never blocks (no reader: ENXIO, refused). */
    int out = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (out < 0) {
        fprintf(stderr, "aasm: cannot open the canary evidence channel %s: %s; nothing ran\n", fifo, strerror(errno));
        return 125;
    }
    used = (size_t)snprintf(line, sizeof line, "nonce=%s", nonce);
    for (int i = 0; i < n; i++) {
        const char *a = args[i];
        if (strncmp(a, "canary:read=/", 13) == 0) fs_read(a + 12);
        else if (strncmp(a, "canary:write=/", 14) == 0) fs_write(a + 13);
        else if (strncmp(a, "canary:port=", 12) == 0) egress(atoi(a + 12));
        else if (strncmp(a, "canary:sys=", 11) == 0) denied_syscall(atol(a + 11));
        else if (strcmp(a, "canary:fork") == 0) process();
        else if (strcmp(a, "canary:signal") == 0) signal_out();
        else if (strcmp(a, "canary:keyring") == 0) keyring();
        else if (strncmp(a, "canary:rlimit=", 14) == 0) rlimit_raise(a + 14);
        else if (strncmp(a, "canary:fifo=", 12) != 0 && strncmp(a, "canary:nonce=", 13) != 0) {
            fprintf(stderr, "aasm: unknown canary '%s'; nothing ran\n", a);
            close(out);
            return 125;
        }
    }
    if (used + 1 < sizeof line) line[used++] = '\n';
    ssize_t w = write(out, line, used);
    close(out);
    if (w != (ssize_t)used) {
        fprintf(stderr, "aasm: the canary record could not be delivered; nothing ran\n");
        return 125;
    }
    if (escaped) {
        fprintf(stderr, "aasm: canary %s was NOT denied: the boundary does not hold what the plan claims;"
                        " refused before the program started\n", escaped);
        return 125;
    }
    return 0;
}
