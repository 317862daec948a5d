/*
 * The init's canaries (GUARD.md, "Canaries"), included by aasm-container-init.c only: the init is the
 * container's first process, inside every part of its boundary (namespaces, read-only root, view, seccomp
 * profile, no capability), and it runs these before it forks the program. One forbidden attempt per
 * domain the launch claims to prevent:
 *
 *   canary:read=<path>    open(O_RDONLY) of a host file aasm made outside the view       filesystem_read
 *   canary:write=<path>   creation of a file in a read-granted (read-only) folder          filesystem_write
 *   canary:port=<n>       TCP connect to 127.0.0.1:<n>, where the supervisor listens on the host  network_egress
 *   canary:sys=<nr>       a syscall the profile denies, every argument -1 (changes nothing)       syscall
 *   canary:signal=<pid>   signal 0 to the supervisor's host pid, outside the container            ipc
 *   canary:dns            a DNS query datagram to 198.18.0.53:53, a resolver outside the host   name_resolution
 *   canary:keyring        keyctl on the caller's user keyring (not namespaced; the profile denies)  credential
 *   canary:rlimit=<r>:<h> raising hard rlimit <r> (the engine set it to <h>) by one                 resource
 *   canary:fork           clone(SIGCHLD) (what fork() makes), fork and vfork; the profile denies   process_creation
 *
 * The record is one line on stderr, `aasm-canary:nonce=<hex> <domain>=<denied|passed|error>/<errno> ...`,
 * written with one write(2) before the program exists; the supervisor's relay takes the first line of the
 * container's stderr (of its terminal, with one) and strips it, and never looks at a later line: whatever
 * the program writes comes after it in the same pipe, so the program cannot forge it.
 */
#ifndef AASM_INIT_CANARY_H
#define AASM_INIT_CANARY_H

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static char canary_line[1024];
static size_t canary_used;
static const char *canary_escaped;

static void canary_note(const char *domain, int through, int err, int denied) {
    const char *verdict = through ? "passed" : denied ? "denied" : "error";
    int n = snprintf(canary_line + canary_used, sizeof canary_line - canary_used, " %s=%s/%d", domain, verdict,
                     through ? 0 : err);
    if (n > 0 && (size_t)n < sizeof canary_line - canary_used) canary_used += (size_t)n;
    if (through && !canary_escaped) canary_escaped = domain;
}

/*
 * One process-creating call: 0 when refused with EPERM (the profile's answer), else its errno (-1 when it
 * made a process, which is reaped at once: it only calls _exit). vfork through libc's wrapper, the one form
 * whose child may safely run on the parent's stack until it exits.
 */
static int canary_spawn(int how) {
    pid_t p = how == 0 ? (pid_t)syscall(SYS_clone, (long)SIGCHLD, 0L, 0L, 0L, 0L)
            : how == 1 ? (pid_t)syscall(SYS_fork) : vfork();
    if (p == 0) _exit(0);
    if (p > 0) {
        while (waitpid(p, NULL, 0) < 0 && errno == EINTR) {
        }
        return -1;
    }
    return errno == EPERM ? 0 : errno;
}

static void canary_one(const char *a) {
    if (!strncmp(a, "canary:read=/", 13)) {
        int fd = open(a + 12, O_RDONLY | O_CLOEXEC);
        int err = errno;
        if (fd >= 0) close(fd);
        /* ENOENT: the file exists on the host (aasm made it) but not in the container's view */
        canary_note("filesystem_read", fd >= 0, err, err == ENOENT || err == EACCES || err == EPERM);
    } else if (!strncmp(a, "canary:write=/", 14)) {
        int fd = open(a + 13, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        int err = errno;
        if (fd >= 0) close(fd); /* left for the supervisor, which sees it from outside and removes it */
        canary_note("filesystem_write", fd >= 0, err, err == EROFS || err == EACCES || err == EPERM);
    } else if (!strncmp(a, "canary:port=", 12)) {
        int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int r = -1, err = errno;
        if (s >= 0) {
            struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(a + 12))};
            sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            r = connect(s, (struct sockaddr *)&sa, sizeof sa);
            err = errno;
            close(s);
        }
        /* ECONNREFUSED/ENETUNREACH: the container's network has no way to the host's loopback */
        canary_note("network_egress", r == 0, err, err == ECONNREFUSED || err == ENETUNREACH || err == EACCES
                    || err == EPERM);
    } else if (!strncmp(a, "canary:sys=", 11)) {
        long r = syscall(atol(a + 11), -1L, -1L, -1L, -1L, -1L, -1L);
        int err = errno;
        canary_note("syscall", r >= 0 || err != EPERM, err, 1);
    } else if (!strcmp(a, "canary:dns")) {
        /* An A query for canary.invalid, to RFC 2544's benchmarking range: never a real resolver, never on a
         * link of the host. NetworkMode none leaves only the container's loopback: no route, ENETUNREACH. */
        static const unsigned char q[] = {0xa5, 0x5a, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 6, 'c', 'a', 'n', 'a', 'r', 'y',
                                          7, 'i', 'n', 'v', 'a', 'l', 'i', 'd', 0, 0, 1, 0, 1};
        int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        ssize_t r = -1;
        int err = errno;
        if (s >= 0) {
            struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(53)};
            sa.sin_addr.s_addr = htonl(0xC6120035);
            r = sendto(s, q, sizeof q, 0, (struct sockaddr *)&sa, sizeof sa);
            err = errno;
            close(s);
        }
        canary_note("name_resolution", r >= 0, err, err == ENETUNREACH || err == EPERM);
    } else if (!strcmp(a, "canary:keyring")) {
        /* The call answers one's own keyring with its id or ENOKEY; only the profile answers EPERM. */
        long r = syscall(SYS_keyctl, 0L /* KEYCTL_GET_KEYRING_ID */, -4L /* KEY_SPEC_USER_KEYRING */, 0L);
        int err = errno;
        canary_note("credential", r >= 0 || err != EPERM, err, 1);
    } else if (!strncmp(a, "canary:rlimit=", 14)) {
        /* Only CAP_SYS_RESOURCE may raise a hard limit, and the container holds no capability. A hard limit
         * above the one the engine was told to set is a ceiling not in force: as open as a raise that works. */
        char *end;
        int res = (int)strtol(a + 14, &end, 10);
        uint64_t planned = *end == ':' ? strtoull(end + 1, NULL, 10) : 0;
        struct rlimit rl;
        int r = getrlimit(res, &rl), err = errno, through = 0;
        if (r == 0 && (rl.rlim_max == RLIM_INFINITY || (uint64_t)rl.rlim_max > planned)) {
            through = 1;
        } else if (r == 0) {
            struct rlimit up = {rl.rlim_cur, rl.rlim_max + 1};
            r = setrlimit(res, &up);
            err = errno;
            through = r == 0;
        }
        canary_note("resource", through, err, err == EPERM);
    } else if (!strcmp(a, "canary:fork")) {
        /* With processes denied the profile refuses fork/vfork and every clone without CLONE_THREAD: EPERM.
         * Any process made is a boundary not held; any other errno (EAGAIN: a pids limit) is not the profile's. */
        int through = 0, err = 0;
        for (int how = 0; how < 3; how++) {
            int r = canary_spawn(how);
            if (r < 0) through = 1;
            else if (r > 0 && !err) err = r;
        }
        canary_note("process_creation", through, err ? err : EPERM, !err);
    } else if (!strncmp(a, "canary:signal=", 14)) {
        int r = kill((pid_t)atoi(a + 14), 0);
        int err = errno;
        /* ESRCH: the supervisor is not in the container's pid namespace at all */
        canary_note("ipc", r == 0, err, err == ESRCH || err == EPERM);
    }
}

/* Runs the canary words among argv[from..to); 0 when all were denied (or none asked), 125 otherwise. */
static int canary_run(char **argv, int from, int to) {
    const char *nonce = NULL;
    for (int i = from; i < to; i++) {
        if (!strncmp(argv[i], "canary:nonce=", 13)) nonce = argv[i] + 13;
    }
    if (from == to) return 0;
    if (!nonce || strlen(nonce) > 64) {
        fprintf(stderr, "aasm-init: canaries asked without a nonce; nothing ran\n");
        return 125;
    }
    canary_used = (size_t)snprintf(canary_line, sizeof canary_line, "aasm-canary:nonce=%s", nonce);
    for (int i = from; i < to; i++) canary_one(argv[i]);
    if (canary_used + 1 < sizeof canary_line) canary_line[canary_used++] = '\n';
    if (write(2, canary_line, canary_used) != (ssize_t)canary_used) return 125; /* no record: nothing runs */
    if (canary_escaped) {
        fprintf(stderr, "aasm: canary %s was NOT denied: the container does not hold what the plan claims;"
                        " refused before the program started\n", canary_escaped);
        return 125;
    }
    return 0;
}

#endif
