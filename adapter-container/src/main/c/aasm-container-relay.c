/*
 * aasm-container-relay: the only way out of a mediated container (RELAY.md). One static binary, two roles.
 *
 *     aasm-container-relay relay <pid> <container id> <port> <session socket>   (host side, the supervisor's child)
 *     /.aasm-relay wait <port> -- <program> [args...]                      (inside the container, its first process)
 *
 * relay: standard input brings one length byte and the session's preamble (the credential the program
 * never sees: never on a command line), then stays open as the lifeline (end of file: exit, ending every
 * relayed connection). The relay enters the container's network namespace (setns through
 * /proc/<pid>/ns/net, after /proc/<pid>/cgroup, read through the same directory handle so a reused pid cannot
 * slip in, named the container) only to create its listeners on 127.0.0.1:<port> (and [::1]:<port> when the
 * namespace has IPv6), returns to its own namespace, and writes "ready <v6>" on stdout. Each connection
 * accepted there is carried to the session's unix socket by a child of its own, the hand-off capability and the
 * preamble first, bytes unchanged both ways; an admitted tunnel the proxy hands over is spliced program <->
 * upstream and its counts reported (relay-tunnel.h). The destination is fixed on the command line: nothing the
 * program sends can point it anywhere else, and a listener in the container's namespace accepts only
 * connections made inside that namespace. At the lifeline's end a final pass takes the connections still
 * waiting in the listeners' queues (made just before the program ended), then the listeners close.
 *
 * wait: the container starts before the relay can enter its namespace (the engine makes the namespace at
 * start), so the container's first process waits until /proc/self/net/tcp shows the relay's IPv4 listener
 * (the relay creates it last), then execs the rest of its command line (aasm's init, or the program when
 * process creation is denied). Nothing is connected while waiting, so no session record is made.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "relay-tunnel.h"

#define MAX_CONNS 64
#define WAIT_SECONDS 10
#define DRAIN_MILLIS 2000

static int parse_port(const char *s) {
    char *end;
    errno = 0;
    long p = strtol(s, &end, 10);
    if (errno || *end || end == s || p < 1 || p > 65535) return -1;
    return (int) p;
}

static void fail(const char *what) {
    dprintf(1, "error %s: %s\n", what, strerror(errno));
    exit(1);
}

/* ------------------------------------------------------------------ wait (inside the container) */

/* Whether /proc/self/net/tcp lists a listener (state 0A) on 127.0.0.1:port. */
static int listening(int port) {
    char want[32];
    snprintf(want, sizeof want, "0100007F:%04X", port);
    FILE *f = fopen("/proc/self/net/tcp", "re");
    if (!f) return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char local[64], remote[64], st[8];
        if (sscanf(line, " %*d: %63s %63s %7s", local, remote, st) == 3 && !strcmp(local, want) && !strcmp(st, "0A"))
            found = 1;
    }
    fclose(f);
    return found;
}

static int wait_role(int argc, char **argv) {
    int port = argc > 2 ? parse_port(argv[2]) : -1;
    if (port < 0 || argc < 5 || strcmp(argv[3], "--")) {
        fprintf(stderr, "usage: /.aasm-relay wait <port> -- <program> [args...]\n");
        return 125;
    }
    struct timespec step = {0, 2 * 1000 * 1000};
    for (long waited = 0; !listening(port); waited += 2) {
        if (waited >= WAIT_SECONDS * 1000L) {
            fprintf(stderr, "aasm-relay: the transport relay did not listen on 127.0.0.1:%d within %d s\n", port,
                    WAIT_SECONDS);
            return 125;
        }
        nanosleep(&step, NULL);
    }
    execvp(argv[4], argv + 4);
    int e = errno;
    /* the supervisor reads this line as it reads the init's (StdioRelay): a program that did not start */
    fprintf(stderr, "aasm-init: exec %s failed: %s\n", argv[4], strerror(e));
    return e == ENOENT ? 127 : 126;
}

/* ------------------------------------------------------------------ relay (host side) */

static int session_connect(const char *path, const unsigned char *preamble, size_t len) {
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return -1;
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, path, strlen(path) + 1);
    if (connect(s, (struct sockaddr *) &a, sizeof a) < 0) {
        close(s);
        return -1;
    }
    /* The hand-off capability, then the credential, in one write before anything of the program's: only the
     * relay writes here, so the program cannot claim the capability (the proxy never makes a credential that
     * begins with 0xFF). At most 68 bytes: written whole. */
    unsigned char first[4 + 64] = {0xFF, 'A', 'H', TUNNEL_HANDOFF_VERSION};
    memcpy(first + 4, preamble, len);
    for (size_t off = 0; off < 4 + len;) {
        ssize_t n = write(s, first + off, 4 + len - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            close(s);
            return -1;
        }
        off += (size_t) n;
    }
    memset(first, 0, sizeof first);
    return s;
}

/* One accepted connection, in a child: the program's side c to a new session connection (relay-tunnel.h). */
static void carry(int c, const char *path, const unsigned char *preamble, size_t len) {
    /* SIGTERM, not SIGKILL: a tunnel cut by the relay's end still reports its counts to the proxy */
    struct sigaction cut = {.sa_handler = tunnel_on_cut};
    sigemptyset(&cut.sa_mask);
    sigaction(SIGTERM, &cut, NULL);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() == 1) _exit(0);
    int s = session_connect(path, preamble, len);
    if (s < 0) _exit(0); /* the program sees its connection reset */
    static struct tunnel t;
    if (tunnel_open(&t, c, s) < 0) _exit(0);
    _exit(tunnel_run(&t));
}

static int listener(int family, int port) {
    /* non-blocking: the final pass at the lifeline's end takes what is pending until EAGAIN */
    int s = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0) return -1;
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    int rc;
    if (family == AF_INET6) {
        setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
        rc = bind(s, (struct sockaddr *) &a, sizeof a);
    } else {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr = {htonl(INADDR_LOOPBACK)}};
        rc = bind(s, (struct sockaddr *) &a, sizeof a);
    }
    if (rc < 0 || listen(s, 64) < 0) {
        int e = errno;
        close(s);
        errno = e;
        return -1;
    }
    return s;
}

static volatile sig_atomic_t child_ended;

static void on_child(int sig) {
    (void) sig;
    child_ended = 1;
}

/* The container's network namespace, through /proc/<pid> held open: its cgroup must name the container. */
static int container_netns(const char *pid, const char *id) {
    char dir[64];
    if (strlen(pid) > 10 || strspn(pid, "0123456789") != strlen(pid) || strlen(id) < 12) {
        errno = EINVAL;
        return -1;
    }
    snprintf(dir, sizeof dir, "/proc/%s", pid);
    int d = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (d < 0) return -1;
    int cg = openat(d, "cgroup", O_RDONLY | O_CLOEXEC);
    char buf[8192];
    ssize_t n = cg < 0 ? -1 : read(cg, buf, sizeof buf - 1);
    if (cg >= 0) close(cg);
    if (n <= 0) {
        close(d);
        return -1;
    }
    buf[n] = 0;
    if (!strstr(buf, id)) {
        close(d);
        errno = ESRCH;
        return -1;
    }
    int ns = openat(d, "ns/net", O_RDONLY | O_CLOEXEC);
    close(d);
    return ns;
}

/* Accepts every connection waiting on listener l (until EAGAIN) and gives each its own carrying child. */
static void take(int l, int *live, const char *session, const unsigned char *preamble, size_t len) {
    for (;;) {
        int c = accept4(l, NULL, NULL, SOCK_CLOEXEC);
        if (c < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            return; /* EAGAIN: none left */
        }
        if (*live >= MAX_CONNS) { /* reset: the program sees the refusal at once */
            struct linger lg = {1, 0};
            setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
            close(c);
            continue;
        }
        pid_t pid = fork();
        if (pid == 0) {
            /* nothing of the relay's but c: not the lifeline, not the listeners */
            close(0);
            if (c > 3) syscall(SYS_close_range, 3U, (unsigned) c - 1, 0U);
            syscall(SYS_close_range, (unsigned) c + 1, ~0U, 0U);
            carry(c, session, preamble, len);
        }
        if (pid > 0) (*live)++;
        close(c);
    }
}

static int relay_role(int argc, char **argv) {
    int port = argc == 6 ? parse_port(argv[4]) : -1;
    if (port < 0 || argv[5][0] != '/' || strlen(argv[5]) >= sizeof ((struct sockaddr_un *) 0)->sun_path) {
        dprintf(1, "error usage: aasm-container-relay relay <pid> <container id> <port> <session socket>\n");
        return 2;
    }
    const char *session = argv[5];
    /* the preamble is in this memory. No PR_SET_PDEATHSIG here: it fires when the *thread* that started us ends,
     * and a JVM starts processes from threads that come and go; the lifeline pipe is what ends the relay. */
    prctl(PR_SET_DUMPABLE, 0);
    unsigned char len, preamble[64];
    if (read(0, &len, 1) != 1 || len < 16 || len > 64) fail("reading the preamble length");
    for (size_t off = 0; off < len;) {
        ssize_t n = read(0, preamble + off, len - off);
        if (n <= 0) fail("reading the preamble");
        off += (size_t) n;
    }
    int own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (own < 0) fail("opening this network namespace");
    int target = container_netns(argv[2], argv[3]);
    if (target < 0) fail("opening the container's network namespace (its first process, with the container's cgroup)");
    struct stat so, st;
    if (fstat(own, &so) < 0 || fstat(target, &st) < 0) fail("reading the network namespaces");
    if (so.st_dev == st.st_dev && so.st_ino == st.st_ino) {
        errno = EINVAL;
        fail("the container shares this network namespace; refusing to listen there");
    }
    if (setns(target, CLONE_NEWNET) < 0) fail("entering the container's network namespace");
    int v6 = listener(AF_INET6, port); /* absent when the namespace has no IPv6 loopback */
    int v4 = listener(AF_INET, port);  /* last: the container's first process waits for this one */
    int e = errno;
    if (setns(own, CLONE_NEWNET) < 0) fail("returning to the supervisor's network namespace");
    errno = e;
    if (v4 < 0) fail("listening on 127.0.0.1 in the container");
    close(own);
    close(target);
    struct sigaction sa = {.sa_handler = on_child};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL); /* no SA_RESTART: poll returns to reap */
    signal(SIGPIPE, SIG_IGN);
    dprintf(1, "ready %d\n", v6 >= 0);
    int live = 0;
    for (;;) {
        struct pollfd fds[3] = {{.fd = 0, .events = POLLIN}, {.fd = v4, .events = POLLIN}, {.fd = v6, .events = POLLIN}};
        int n = poll(fds, v6 >= 0 ? 3 : 2, -1);
        int polled = errno;
        if (child_ended) {
            child_ended = 0;
            while (waitpid(-1, NULL, WNOHANG) > 0) live--;
        }
        if (n < 0) {
            if (polled == EINTR) continue;
            errno = polled;
            fail("poll");
        }
        if (fds[1].revents & POLLIN) take(v4, &live, session, preamble, len);
        if (v6 >= 0 && (fds[2].revents & POLLIN)) take(v6, &live, session, preamble, len);
        if (fds[0].revents) {
            char b[64];
            if (read(0, b, sizeof b) <= 0) break; /* the supervisor closed the lifeline: the launch is over */
        }
    }
    /* Final pass: a connection the program made just before it ended may still wait in a listener's queue,
     * its bytes already written; it is taken like any other (PROTOCOL.md of the native relay does the same). */
    take(v4, &live, session, preamble, len);
    if (v6 >= 0) take(v6, &live, session, preamble, len);
    close(v4);
    if (v6 >= 0) close(v6);
    /* the program has ended: let connections still carrying its last bytes finish (at most DRAIN_MILLIS) */
    for (int waited = 0; live > 0 && waited < DRAIN_MILLIS; waited += 20) {
        poll(NULL, 0, 20);
        while (waitpid(-1, NULL, WNOHANG) > 0) live--;
    }
    return 0; /* a tunnel still carried is cut now (PR_SET_PDEATHSIG: it reports its counts, then ends) */
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "wait")) return wait_role(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "relay")) return relay_role(argc, argv);
    fprintf(stderr, "usage: aasm-container-relay relay <pid> <container id> <port> <session socket>\n"
                    "       aasm-container-relay wait <port> -- <program> [args...]\n");
    return 2;
}
