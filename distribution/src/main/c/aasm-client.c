/*
 * aasm-client: the resident kernel's command-line client (see docs/resident.md).
 *
 * It only marshals: argv, the working directory, the caller's environment and its stdin/stdout/stderr
 * (as descriptors, SCM_RIGHTS) go to the resident kernel over a Unix socket; signals (INT/TERM/HUP)
 * are relayed as frames; the status frame becomes the exit code. Every decision (parsing, policy,
 * backend, report) is made by the kernel's own command layer. Without a running kernel it falls back
 * to the cold path (bin/aasm with AASM_CLIENT=off), or starts the kernel when AASM_AUTOSTART=1.
 *
 * Wire format (version 1), all integers big-endian:
 *   request  "AASM" kind:u8 len:u32 payload     kind 'R' run | 'Q' status | 'T' stop
 *            payload of 'R': NUL-terminated strings "1", home, cwd, argc, argv..., envc, env...
 *            (home: the installation this client belongs to; a kernel of another one answers 'F')
 *   client   'S' signo:u8                       a signal the client received (INT, TERM, HUP, WINCH)
 *   kernel   'X' status:i32                     the command's exit status (last frame)
 *            'E' len:u32 text                   refused (exit 125)
 *            'B' len:u32 text                   busy: at a bound of the kernel, try again (exit 75)
 *            'I' len:u32 text                   answer to 'Q'/'T'
 *            'F' len:u32 text                   not mine to serve: run cold (text says why): another
 *                                               installation's client, or a caller inside a boundary
 *                                               (the cold JVM then stays inside that boundary)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FAILED_BEFORE_START 125
#define TRY_AGAIN 75 /* sysexits.h EX_TEMPFAIL */
#define MAX_PAYLOAD (4u << 20)

extern char **environ;

static int sigpipe_fds[2] = {-1, -1};

static void die(const char *what) {
    fprintf(stderr, "aasm: resident client: %s: %s\n", what, strerror(errno));
    exit(FAILED_BEFORE_START);
}

/*
 * Same rule as the boot jar (ResidentPath.java) and bin/aasm: $XDG_RUNTIME_DIR, else /run/user/<uid> when it is
 * the user's, else aasm's cache ($XDG_CACHE_HOME/aasm/run, else $HOME/.cache/aasm/run). Never /tmp: the runtime
 * directory is one of aasm's protected paths, and a backend that cannot keep it read-only beneath a write grant
 * (sandlock) would refuse every write grant of /tmp.
 */
static void socket_path(char *out, size_t n) {
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    const char *cache = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    struct stat st;
    char run[64];
    snprintf(run, sizeof run, "/run/user/%u", (unsigned) getuid());
    if (xdg && xdg[0] == '/') {
        snprintf(out, n, "%s/aasm.sock", xdg);
    } else if (stat(run, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid()) {
        snprintf(out, n, "%s/aasm.sock", run);
    } else if (cache && cache[0] == '/') {
        snprintf(out, n, "%s/aasm/run/aasm.sock", cache);
    } else {
        snprintf(out, n, "%s/.cache/aasm/run/aasm.sock", home && home[0] == '/' ? home : "/nonexistent");
    }
}

static void self_dir(char *out, size_t n) {
    ssize_t len = readlink("/proc/self/exe", out, n - 1);
    if (len <= 0) {
        die("cannot read /proc/self/exe");
    }
    out[len] = 0;
    char *slash = strrchr(out, '/');
    if (slash) {
        *slash = 0;
    }
}

/* The cold in-process path: bin/aasm next to this binary, told not to come back here. */
static void run_cold(char **argv) {
    char dir[PATH_MAX], aasm[PATH_MAX + 8];
    self_dir(dir, sizeof dir);
    snprintf(aasm, sizeof aasm, "%s/aasm", dir);
    setenv("AASM_CLIENT", "off", 1);
    argv[0] = aasm;
    execv(aasm, argv);
    die("cannot run the cold path bin/aasm");
}

static int try_connect(const char *path) {
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(sa.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        die("socket");
    }
    if (connect(fd, (struct sockaddr *) &sa, sizeof sa) == 0) {
        return fd;
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

/* A socket file nobody listens on is removed, but only when no kernel holds the lock next to it
 * (one that is between bind and listen does). So the fallback message is said once per stale socket.
 * The kernel locks with FileChannel.tryLock, a POSIX record lock: flock(2) would not see it. */
static void remove_if_stale(const char *path) {
    char lock[PATH_MAX + 8];
    snprintf(lock, sizeof lock, "%s.lock", path);
    int fd = open(lock, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        return;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (fcntl(fd, F_SETLK, &fl) == 0) {
        unlink(path);
    }
    close(fd);
}

static int autostart(const char *path) {
    char dir[PATH_MAX], aasm[PATH_MAX + 8];
    self_dir(dir, sizeof dir);
    snprintf(aasm, sizeof aasm, "%s/aasm", dir);
    pid_t pid = fork();
    if (pid < 0) {
        die("fork");
    }
    if (pid == 0) {
        int dn = open("/dev/null", O_RDWR);
        dup2(dn, 0);
        dup2(2, 1); /* progress goes to the caller's stderr, never into its stdout */
        setenv("AASM_CLIENT", "off", 1);
        execl(aasm, aasm, "daemon", "start", (char *) NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return try_connect(path);
}

static void put_str(char **buf, size_t *len, size_t *cap, const char *s) {
    size_t n = strlen(s) + 1;
    if (*len + n > MAX_PAYLOAD) {
        fprintf(stderr, "aasm: resident client: request larger than %u bytes (arguments plus environment)\n", MAX_PAYLOAD);
        exit(FAILED_BEFORE_START);
    }
    while (*len + n > *cap) {
        *cap *= 2;
        *buf = realloc(*buf, *cap);
        if (!*buf) {
            die("realloc");
        }
    }
    memcpy(*buf + *len, s, n);
    *len += n;
}

/* 0, or -1 when the kernel stopped reading (it may have answered first: the caller reads that answer). */
static int write_all(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n > 0) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        c += w;
        n -= (size_t) w;
    }
    return 0;
}

static int read_full(int fd, void *p, size_t n) {
    char *c = p;
    while (n > 0) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return -1;
        }
        c += r;
        n -= (size_t) r;
    }
    return 0;
}

/* The kernel reopens a passed descriptor through /proc/self/fd. That is the caller's own stream for a
 * tty, a pipe/FIFO or a device, but a socket cannot be reopened and a regular file would get its own
 * offset (the caller's next write would overwrite the program's output). Those are relayed here
 * through a pipe, so every byte goes through the caller's own descriptor (the program sees a pipe). */
struct relay {
    int from, to;
    pthread_t thread;
    int active;
};

static void *relay_run(void *arg) {
    struct relay *r = arg;
    char buf[65536];
    for (;;) {
        ssize_t n = read(r->from, buf, sizeof buf);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        char *p = buf;
        while (n > 0) {
            ssize_t w = write(r->to, p, (size_t) n);
            if (w < 0 && errno == EINTR) {
                continue;
            }
            if (w <= 0) {
                goto done;
            }
            p += w;
            n -= w;
        }
    }
done:
    close(r->from == 0 ? r->to : r->from);
    return NULL;
}

static int stdio_fd(int fd, struct relay *rel) {
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int dn = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (dn < 0) {
            die("open /dev/null");
        }
        return dn;
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        return fd;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        die("pipe");
    }
    rel->active = 1;
    if (fd == 0) {
        rel->from = 0;
        rel->to = p[1];
        pthread_create(&rel->thread, NULL, relay_run, rel);
        return p[0];
    }
    rel->from = p[0];
    rel->to = fd;
    pthread_create(&rel->thread, NULL, relay_run, rel);
    return p[1];
}

/* 0 when the whole request went out; -1 (errno set) when the kernel closed first. */
static int send_request(int sock, char **argv, int argc, const int fds[3]) {
    size_t cap = 65536, len = 9;
    char *buf = malloc(cap);
    char num[32], cwd[PATH_MAX];
    if (!buf) {
        die("malloc");
    }
    if (!getcwd(cwd, sizeof cwd)) {
        die("getcwd");
    }
    char home[PATH_MAX];
    self_dir(home, sizeof home);
    char *slash = strrchr(home, '/'); /* bin/ -> the installation */
    if (slash && slash != home) {
        *slash = 0;
    }
    put_str(&buf, &len, &cap, "1");
    put_str(&buf, &len, &cap, home);
    put_str(&buf, &len, &cap, cwd);
    snprintf(num, sizeof num, "%d", argc - 1);
    put_str(&buf, &len, &cap, num);
    for (int i = 1; i < argc; i++) {
        put_str(&buf, &len, &cap, argv[i]);
    }
    int envc = 0;
    for (char **e = environ; *e; e++) {
        envc++;
    }
    snprintf(num, sizeof num, "%d", envc);
    put_str(&buf, &len, &cap, num);
    for (char **e = environ; *e; e++) {
        put_str(&buf, &len, &cap, *e);
    }
    uint32_t plen = (uint32_t) (len - 9);
    memcpy(buf, "AASMR", 5);
    buf[5] = (char) (plen >> 24);
    buf[6] = (char) (plen >> 16);
    buf[7] = (char) (plen >> 8);
    buf[8] = (char) plen;

    /* the descriptors ride on the first byte of the request */
    struct iovec iov = {.iov_base = buf, .iov_len = 1};
    union {
        struct cmsghdr h;
        char space[CMSG_SPACE(3 * sizeof(int))];
    } ctl;
    memset(&ctl, 0, sizeof ctl);
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.space, .msg_controllen = sizeof ctl.space};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(3 * sizeof(int));
    memcpy(CMSG_DATA(c), fds, 3 * sizeof(int));
    ssize_t sent;
    while ((sent = sendmsg(sock, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    int rc = sent == 1 ? write_all(sock, buf + 1, len - 1) : -1;
    int saved = errno;
    free(buf);
    errno = saved;
    return rc;
}

static void on_signal(int sig) {
    unsigned char b = (unsigned char) sig;
    int saved = errno;
    if (write(sigpipe_fds[1], &b, 1) < 0) {
        /* pipe full: that many pending signals already force an immediate end */
    }
    errno = saved;
}

#define RUN_COLD (-1)

/* send_errno: why the request could not be sent in full (0: it was); said when no answer explains it. */
static int serve(int sock, int send_errno) {
    struct pollfd p[2] = {{.fd = sock, .events = POLLIN}, {.fd = sigpipe_fds[0], .events = POLLIN}};
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            die("poll");
        }
        if (p[1].revents & POLLIN) {
            unsigned char sig;
            if (read(sigpipe_fds[0], &sig, 1) == 1) {
                unsigned char frame[2] = {'S', sig};
                if (send(sock, frame, 2, MSG_NOSIGNAL) != 2) {
                    /* the kernel is gone; the status read below says so */
                }
            }
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            unsigned char kind;
            if (read_full(sock, &kind, 1) < 0) {
                if (send_errno != 0) {
                    fprintf(stderr, "aasm: resident client: sending the request to the resident kernel: %s\n",
                            strerror(send_errno));
                    return FAILED_BEFORE_START;
                }
                fprintf(stderr, "aasm: the resident kernel closed the connection before the program's status arrived\n");
                return FAILED_BEFORE_START;
            }
            unsigned char n[4];
            if (read_full(sock, n, 4) < 0) {
                fprintf(stderr, "aasm: truncated frame from the resident kernel\n");
                return FAILED_BEFORE_START;
            }
            uint32_t v = (uint32_t) n[0] << 24 | (uint32_t) n[1] << 16 | (uint32_t) n[2] << 8 | n[3];
            if (kind == 'X') {
                return (int) v;
            }
            if (kind == 'E' || kind == 'I' || kind == 'F' || kind == 'B') {
                char *text = malloc((size_t) v + 1);
                if (!text || v > MAX_PAYLOAD || read_full(sock, text, v) < 0) {
                    fprintf(stderr, "aasm: truncated frame from the resident kernel\n");
                    return FAILED_BEFORE_START;
                }
                text[v] = 0;
                fprintf(stderr, "%s\n", text);
                if (kind == 'F') {
                    return RUN_COLD;
                }
                return kind == 'E' ? FAILED_BEFORE_START : kind == 'B' ? TRY_AGAIN : 0;
            }
            fprintf(stderr, "aasm: unknown frame 0x%02x from the resident kernel\n", kind);
            return FAILED_BEFORE_START;
        }
    }
}

/* One "Key:\tvalue" number of /proc/<pid>/status, or -1 when it cannot be read. */
static long status_number(pid_t pid, const char *key) {
    char path[64], buf[8192];
    snprintf(path, sizeof path, "/proc/%d/status", (int) pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) {
        return -1;
    }
    buf[n] = 0;
    size_t klen = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            return strtol(line + klen + 1, NULL, 10);
        }
    }
    return -1;
}

/*
 * Before anything is sent (the caller's argv, environment and terminal): the process serving the socket must
 * not be inside a boundary the client is not in. A confined program could otherwise have put a socket of its
 * own where the kernel's belongs (e.g. under a /tmp it may write) and wait for the next caller. Judged from
 * the kernel's record of the peer (SO_PEERCRED) and its /proc status, never from anything it says.
 */
static const char *untrusted_server(int sock) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid <= 0) {
        return "its process cannot be identified";
    }
    if (cred.uid != getuid()) {
        return "it runs as another user";
    }
    long nnp = status_number(cred.pid, "NoNewPrivs"), own_nnp = status_number(getpid(), "NoNewPrivs");
    long filters = status_number(cred.pid, "Seccomp_filters"), own_filters = status_number(getpid(), "Seccomp_filters");
    if (nnp < 0 || filters < 0) {
        return "its /proc status cannot be read";
    }
    if (nnp > own_nnp) {
        return "it runs with no_new_privs, inside a boundary";
    }
    if (filters > own_filters) {
        return "it runs under seccomp filters this client does not have, inside a boundary";
    }
    return NULL;
}

int main(int argc, char **argv) {
    char path[PATH_MAX];
    socket_path(path, sizeof path);
    int sock = try_connect(path);
    if (sock < 0 && getenv("AASM_AUTOSTART") && strcmp(getenv("AASM_AUTOSTART"), "1") == 0) {
        sock = autostart(path);
    }
    const char *why = sock >= 0 ? untrusted_server(sock) : NULL;
    if (why) {
        fprintf(stderr, "aasm: not using the process serving %s: %s; running cold\n", path, why);
        close(sock);
        run_cold(argv);
    }
    if (sock < 0) {
        int refused = errno == ECONNREFUSED;
        fprintf(stderr, "aasm: no resident kernel at %s; running cold (start one with: aasm daemon start)\n", path);
        if (refused) {
            remove_if_stale(path);
        }
        run_cold(argv);
    }
    signal(SIGPIPE, SIG_IGN);
    if (pipe2(sigpipe_fds, O_CLOEXEC | O_NONBLOCK) < 0) {
        die("pipe");
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* A window change is relayed too: the kernel hands it to the boundary's own terminal (not an end). */
    sigaction(SIGWINCH, &sa, NULL);

    struct relay rel[3] = {{0}, {0}, {0}};
    int fds[3];
    for (int i = 0; i < 3; i++) {
        fds[i] = stdio_fd(i, &rel[i]);
    }
    int send_errno = send_request(sock, argv, argc, fds) == 0 ? 0 : errno;
    for (int i = 0; i < 3; i++) {
        if (fds[i] != i) {
            close(fds[i]); /* only the kernel's copy stays, so a relayed stream ends when the program's does */
        }
    }
    int status = serve(sock, send_errno);
    close(sock);
    if (status == RUN_COLD) {
        run_cold(argv); /* nothing ran: the descriptors were never used */
    }
    for (int i = 1; i < 3; i++) {
        if (rel[i].active) {
            pthread_join(rel[i].thread, NULL); /* drain what the program wrote */
        }
    }
    return status & 0xff;
}
