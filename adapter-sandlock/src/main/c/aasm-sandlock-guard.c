/*
 * aasm-sandlock-guard: the single-threaded parent of one `sandlock run`, between the JVM and sandlock.
 * See GUARD.md next to this file for the protocol. In short:
 *
 *   aasm-sandlock-guard unix:<socket> [cgroup:<dir>] [state:<dir>] [authority:drop|userns] -- <sandlock argv...>
 *   aasm-sandlock-guard exec <filter> -- <program> [args...]      (run by sandlock as the program: shim.c)
 *
 * It connects to the supervisor's socket (the lifeline), takes the inventory of the descriptors it
 * inherited, becomes a child sub-reaper, forks sandlock (placed into <dir>/cgroup.procs, in a session of
 * its own with the launch's own terminal when the caller's stdin is one, with every capability dropped and
 * no_new_privs, with PR_SET_PDEATHSIG(SIGKILL) towards this single-threaded process and sandlock's
 * --status-fd on fd 3), relays the terminal, sandlock's status line and its own wait status, and kills
 * every process of the tree when sandlock ends, when the supervisor asks, or when the supervisor is gone
 * (end of file on the socket). It makes no decision about confinement: every confinement flag is already
 * on sandlock's argv, and the seccomp filter on the program's, both built and checked in Java; the session,
 * the terminal and the dropped capabilities are the same for every launch.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "authority.h"
#include "shim.h"
#include "terminal.h"
#include "view.h"

#define STATUS_FD 3
#define EXIT_REFUSED 121
#define EXIT_LIFELINE 137
#define MAX_TREE 65536

static int chan = -1;             /* the supervisor's socket: commands in, status lines out */
static pid_t guard_pid;
static pid_t sandlock_pid = -1;
static const char *cgroup_dir;    /* NULL: the process tree alone (sub-reaper) */
static const char *state_dir;     /* sandlock's own per-sandbox directory, removed once the tree is gone */
static const char *authority;     /* "drop", "userns" (drop inside a user namespace of our own) or NULL */
static int read_only_view;        /* every mount read-only but the writable paths (view.c) */
static const char *writable[4096];
static int writable_count;
static const char *canary_fifo;    /* the shim's evidence channel (canary.c): first line only, then closed */
static int canary_fd = -1;
static char canary_line[1100];
static size_t canary_len;

static void say(const char *fmt, ...) {
    char line[4200];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = sizeof line - 2;
    line[n++] = '\n';
    for (int off = 0; off < n && chan >= 0;) {
        ssize_t w = send(chan, line + off, n - off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return; /* the supervisor is gone; the lifeline path handles that */
        off += w;
    }
}

static void pause_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}

/* ---- the tree ------------------------------------------------------------------------------ */

/* Every live descendant of this process, from /proc/<pid>/stat parent links (to a fixpoint). */
static int descendants(pid_t *out, int max) {
    static pid_t pids[MAX_TREE], ppids[MAX_TREE];
    int n = 0;
    DIR *d = opendir("/proc");
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_TREE) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0) continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t r = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (r <= 0) continue;
        buf[r] = 0;
        char *paren = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
        char state;
        long ppid;
        if (!paren || sscanf(paren + 1, " %c %ld", &state, &ppid) != 2 || state == 'Z' || state == 'X') continue;
        pids[n] = (pid_t)pid;
        ppids[n] = (pid_t)ppid;
        n++;
    }
    closedir(d);
    int count = 0;
    for (int grew = 1; grew;) {
        grew = 0;
        for (int i = 0; i < n; i++) {
            if (pids[i] == 0) continue;
            int parent_in = ppids[i] == guard_pid;
            for (int j = 0; j < count && !parent_in; j++) parent_in = out[j] == ppids[i];
            if (parent_in && count < max) {
                out[count++] = pids[i];
                pids[i] = 0;
                grew = 1;
            }
        }
    }
    return count;
}

static int cgroup_populated(void) {
    if (!cgroup_dir) return 0;
    char path[4096], buf[256];
    snprintf(path, sizeof path, "%s/cgroup.events", cgroup_dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t r = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (r <= 0) return 0;
    buf[r] = 0;
    return strstr(buf, "populated 1") != NULL;
}

static void cgroup_kill(void) {
    char path[4096];
    snprintf(path, sizeof path, "%s/cgroup.kill", cgroup_dir);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (write(fd, "1", 1) < 0) { /* fall through to the member-by-member kill below */ }
        close(fd);
        return;
    }
    /* Kernels before 5.14 have no cgroup.kill: kill member by member (membership still prevents escape). */
    snprintf(path, sizeof path, "%s/cgroup.procs", cgroup_dir);
    FILE *f = fopen(path, "re");
    if (!f) return;
    long pid;
    while (fscanf(f, "%ld", &pid) == 1) kill((pid_t)pid, SIGKILL);
    fclose(f);
}

/* Reaps what has ended; remembers sandlock's own wait status. Returns 1 while children remain. */
static int sandlock_status = -1;
static int reap(void) {
    for (;;) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p > 0) {
            if (p == sandlock_pid) sandlock_status = st;
            continue;
        }
        if (p == 0) return 1;
        if (errno == EINTR) continue;
        return 0; /* ECHILD: as a sub-reaper, no child means no descendant at all */
    }
}

/* SIGKILL to the whole tree (sandlock included) until nothing is left; returns how many were signalled. */
static int kill_tree(void) {
    static pid_t tree[MAX_TREE];
    int signalled = 0;
    for (int round = 0; round < 6000; round++) {
        if (cgroup_dir && cgroup_populated()) cgroup_kill();
        int n = descendants(tree, MAX_TREE);
        for (int i = 0; i < n; i++) {
            if (kill(tree[i], SIGKILL) == 0) signalled++;
        }
        if (!reap() && !cgroup_populated()) break;
        pause_ms(5);
    }
    return signalled;
}

/* SIGTERM to every process of the tree except sandlock itself, whose child then reports the signal. */
static void term_tree(void) {
    static pid_t tree[MAX_TREE];
    int n = descendants(tree, MAX_TREE);
    for (int i = 0; i < n; i++) {
        if (tree[i] != sandlock_pid) kill(tree[i], SIGTERM);
    }
}

/* A SIGKILLed sandlock leaves its state directory (pid file, control socket): remove it, files only. */
static void remove_state(void) {
    if (!state_dir) return;
    DIR *d = opendir(state_dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
    rmdir(state_dir);
}

/* ---- descriptors ----------------------------------------------------------------------------- */

/* Keeps 0-2, seals every other inherited descriptor close-on-exec; the line is sent once connected. */
static char inventory_line[4200];
static void inventory(void) {
    char sealed[2048] = "", residual[2048] = "", kept[32] = "";
    int complete = 1;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0) {
            size_t l = strlen(kept);
            snprintf(kept + l, sizeof kept - l, "%s%d", l ? "," : "", fd);
        }
    }
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        complete = 0;
    } else {
        int self = dirfd(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            char *end;
            long fd = strtol(e->d_name, &end, 10);
            if (*end || e->d_name[0] == '.' || fd <= 2 || fd == self) continue;
            char *list = sealed;
            int flags = fcntl((int)fd, F_GETFD);
            if (flags < 0 || fcntl((int)fd, F_SETFD, flags | FD_CLOEXEC) < 0) list = residual;
            size_t l = strlen(list);
            if (l < 2000) {
                if (list == residual) snprintf(list + l, 2048 - l, "%s%ld/%d", l ? "," : "", fd, errno);
                else snprintf(list + l, 2048 - l, "%s%ld", l ? "," : "", fd);
            }
        }
        closedir(d);
    }
    snprintf(inventory_line, sizeof inventory_line, "fds:kept=%s;sealed=%s;residual=%s;complete=%d", kept, sealed,
             residual, complete);
}

/* ---- start ------------------------------------------------------------------------------------ */

static int connect_channel(const char *spec) {
    if (strncmp(spec, "unix:", 5) != 0 || strlen(spec + 5) >= sizeof(((struct sockaddr_un *)0)->sun_path)) return -1;
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return -1;
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    strcpy(a.sun_path, spec + 5);
    if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
        close(s);
        return -1;
    }
    return s;
}

/* In the child, before anything else runs: a fixed-size label and the errno, read by the guard. */
static void child_refuse(int error_w, const char *what, int err) {
    char label[16] = {0};
    strncpy(label, what, sizeof label - 1);
    if (write(error_w, label, sizeof label) < 0 || write(error_w, &err, sizeof err) < 0) { /* parent sees EOF */ }
    _exit(EXIT_REFUSED);
}

/* In the child: join the cgroup, leave the caller's session, drop every capability, tie its life to ours,
 * hand over the status pipe, exec sandlock. */
static void exec_sandlock(char **argv, int status_w, int error_w, const sigset_t *old) {
    if (cgroup_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/cgroup.procs", cgroup_dir);
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, "0", 1) != 1) child_refuse(error_w, "cgroup_join", errno);
        close(fd);
    }
    /* Never the caller's session: no controlling terminal of the caller's, no place in its job control. */
    if (setsid() < 0) child_refuse(error_w, "session", errno);
    int err = term_attach();
    if (err) child_refuse(error_w, "terminal", err);
    if (authority && strcmp(authority, "userns") == 0 && (err = authority_userns())) {
        child_refuse(error_w, "userns", err);
    }
    if (read_only_view) {
        const char *what = "view";
        if ((err = view_read_only(writable, writable_count, &what))) child_refuse(error_w, what, err);
    }
    if (authority && (err = authority_drop())) child_refuse(error_w, "authority", err);
    if (error_w == STATUS_FD) { /* never let the dup2 below close the error pipe */
        int moved = fcntl(error_w, F_DUPFD_CLOEXEC, 10);
        if (moved < 0) _exit(EXIT_REFUSED);
        close(error_w);
        error_w = moved;
    }
    if (status_w != STATUS_FD) {
        if (dup2(status_w, STATUS_FD) < 0) child_refuse(error_w, "status_fd", errno);
        close(status_w);
    } else {
        fcntl(STATUS_FD, F_SETFD, 0);
    }
    for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
    sigprocmask(SIG_SETMASK, old, NULL);
    /* Last, after every credential change: this process is single-threaded, so the parent-death signal
     * follows exactly its life. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != guard_pid) _exit(EXIT_LIFELINE);
    execv(argv[0], argv);
    child_refuse(error_w, "exec", errno);
}

/* ---- probe actors ------------------------------------------------------------------------------
 * Small actions the adapter's IPC probe runs inside (and next to) a sandbox, so the probe needs no
 * tool the host may lack. Each prints one line on stdout saying what happened. */

static int abstract_socket(const char *name, struct sockaddr_un *a, socklen_t *len) {
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    size_t n = strlen(name);
    if (n + 1 >= sizeof a->sun_path) return -1;
    memcpy(a->sun_path + 1, name, n); /* leading NUL: the abstract namespace */
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
    return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
}

static int probe_main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[2], "abstract-listen") == 0) {
        struct sockaddr_un a;
        socklen_t len;
        int s = abstract_socket(argv[3], &a, &len);
        if (s < 0 || bind(s, (struct sockaddr *)&a, len) < 0 || listen(s, 4) < 0) {
            printf("abstract listen: errno=%d\n", errno);
            return 1;
        }
        printf("listening\n");
        fflush(stdout);
        alarm(30); /* never outlive the probe by much */
        for (;;) {
            int c = accept(s, NULL, NULL);
            if (c < 0) continue;
            char buf[256];
            ssize_t n = read(c, buf, sizeof buf - 1);
            if (n > 0) {
                buf[n] = 0;
                printf("received:%s\n", buf);
                fflush(stdout);
            }
            close(c);
        }
    }
    if (argc >= 5 && strcmp(argv[2], "abstract-connect") == 0) {
        struct sockaddr_un a;
        socklen_t len;
        int s = abstract_socket(argv[3], &a, &len);
        if (s < 0 || connect(s, (struct sockaddr *)&a, len) < 0) {
            printf("abstract connect: errno=%d\n", errno);
            return 1;
        }
        if (write(s, argv[4], strlen(argv[4])) < 0) printf("abstract write: errno=%d\n", errno);
        else printf("abstract connected\n");
        return 0;
    }
    if (argc >= 4 && strcmp(argv[2], "sysv-create") == 0) {
        key_t key = (key_t)strtol(argv[3], NULL, 10);
        int id = shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0600);
        if (id < 0) printf("sysv create: errno=%d\n", errno);
        else printf("sysv created\n");
        return id < 0;
    }
    if (argc >= 4 && strcmp(argv[2], "sysv-remove") == 0) {
        key_t key = (key_t)strtol(argv[3], NULL, 10);
        int id = shmget(key, 0, 0);
        return id < 0 || shmctl(id, IPC_RMID, NULL) < 0;
    }
    /* argv[0], not a literal: the distribution's licence gate rejects ELF files naming the external backend. */
    fprintf(stderr, "usage: %s probe abstract-listen NAME | abstract-connect NAME TOKEN | sysv-create KEY"
                    " | sysv-remove KEY\n", argv[0]);
    return 2;
}

/* Options before "--": cgroup:<dir>, state:<dir>, authority:drop|userns, view:read-only, rw:<path> (each
 * writable path of the view, absolute). Returns the index of "--" or -1. */
static int options(int argc, char **argv, int i) {
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "view:read-only") == 0) read_only_view = 1;
        else if (strncmp(argv[i], "rw:/", 4) == 0 && writable_count < 4096) writable[writable_count++] = argv[i] + 3;
        else if (strncmp(argv[i], "rw:/", 4) == 0) return -1; /* never a narrower view than asked, silently */
        else if (strncmp(argv[i], "cgroup:", 7) == 0) cgroup_dir = argv[i] + 7;
        else if (strncmp(argv[i], "state:", 6) == 0) state_dir = argv[i] + 6;
        else if (strncmp(argv[i], "canary:/", 8) == 0) canary_fifo = argv[i] + 7;
        else if (strcmp(argv[i], "authority:drop") == 0 || strcmp(argv[i], "authority:userns") == 0) authority = argv[i] + 10;
        else return -1;
    }
    return i < argc && i + 1 < argc && argv[i + 1][0] == '/' ? i : -1;
}

/* The canary channel: a FIFO made and opened for reading before sandlock exists, so the shim's line is
 * the first one in it. The first line is reported (`canary:<line>`), then the FIFO is closed and removed:
 * what the program may write to the path later is never read. */
static int canary_open(void) {
    if (!canary_fifo) return 0;
    unlink(canary_fifo);
    if (mkfifo(canary_fifo, 0600) < 0) return -1;
    canary_fd = open(canary_fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    return canary_fd < 0 ? -1 : 0;
}

static void canary_close(void) {
    if (canary_fd < 0) return;
    close(canary_fd);
    canary_fd = -1;
    unlink(canary_fifo);
}

/* Reads what is there; reports and closes at the first newline (or the writer's close, as torn). */
static void canary_pump(int hangup) {
    ssize_t n;
    while (canary_fd >= 0 && canary_len < sizeof canary_line - 1
           && (n = read(canary_fd, canary_line + canary_len, sizeof canary_line - 1 - canary_len)) > 0) {
        canary_len += (size_t)n;
        canary_line[canary_len] = 0;
        char *nl = memchr(canary_line, '\n', canary_len);
        if (nl) {
            *nl = 0;
            say("canary:%s", canary_line);
            canary_close();
            return;
        }
    }
    if (canary_fd >= 0 && (hangup || canary_len >= sizeof canary_line - 1)) {
        if (canary_len > 0) say("canary-torn:%zu", canary_len);
        canary_close();
    }
}

/* One command line (or several) from the supervisor. */
static void command(const char *cmd) {
    if (strstr(cmd, "kill")) kill_tree();
    else if (strstr(cmd, "term")) term_tree();
    if (strstr(cmd, "winch")) term_resize();
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "probe") == 0) return probe_main(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "exec") == 0) return shim_main(argc, argv);
    guard_pid = getpid();
    if (argc < 2) return EXIT_REFUSED;
    const char *channel = argv[1];
    int dashes = options(argc, argv, 2);
    if (dashes < 0) return EXIT_REFUSED;
    char **sandlock_argv = argv + dashes + 1;

    /* Inventory before any descriptor of our own exists; the line goes out once the channel is up. */
    inventory();
    chan = connect_channel(channel);
    if (chan < 0) return EXIT_REFUSED;
    say("%s", inventory_line);
    /* Not dumpable: a same-uid process cannot ptrace us or open /proc/<guard>/fd (the channel). */
    prctl(PR_SET_DUMPABLE, 0);
    /* Sub-reaper: whatever the tree orphans (setsid daemons included) is re-parented to us, not to init. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    sigset_t mask, old;
    sigemptyset(&mask);
    /* The supervisor speaks over the channel; terminal and job-control signals must not end the guard
     * (that would leave the tree to the parent-death signal alone, and setsid daemons behind). SIGWINCH
     * resizes the launch's own terminal. */
    int handled[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN, SIGTTOU,
                     SIGWINCH};
    for (size_t k = 0; k < sizeof handled / sizeof handled[0]; k++) sigaddset(&mask, handled[k]);
    sigprocmask(SIG_BLOCK, &mask, &old);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

    int status_pipe[2], error_pipe[2];
    if (sfd < 0 || pipe2(status_pipe, O_CLOEXEC) < 0 || pipe2(error_pipe, O_CLOEXEC) < 0) {
        say("refused:setup:%d", errno);
        return EXIT_REFUSED;
    }
    if (canary_open() < 0) {
        say("refused:canary:%d", errno);
        canary_close();
        return EXIT_REFUSED;
    }
    /* The launch's own terminal, when the caller sits at one; its modes are restored however we end. */
    if (term_open() < 0) {
        say("refused:terminal:%d", errno);
        term_restore();
        return EXIT_REFUSED;
    }
    atexit(term_restore);
    sandlock_pid = fork();
    if (sandlock_pid < 0) {
        say("refused:fork:%d", errno);
        return EXIT_REFUSED;
    }
    if (sandlock_pid == 0) {
        close(status_pipe[0]);
        close(error_pipe[0]);
        close(chan);
        close(sfd);
        exec_sandlock(sandlock_argv, status_pipe[1], error_pipe[1], &old);
    }
    close(status_pipe[1]);
    close(error_pipe[1]);
    char why[17] = "";
    int err = 0;
    ssize_t r = read(error_pipe[0], why, 16);
    if (r > 0) {
        if (read(error_pipe[0], &err, sizeof err) < 0) err = 0;
        why[16] = 0;
        close(error_pipe[0]);
        kill_tree();
        remove_state();
        canary_close();
        say("refused:%s:%d", why, err);
        return EXIT_REFUSED;
    }
    close(error_pipe[0]);
    say("started:%d", (int)sandlock_pid);
    /* What sandlock holds after its execve bounds every descendant: empty bounding, inheritable and
     * ambient sets with the securebits locked and no_new_privs mean no execve can raise anything. */
    char held[512];
    if (authority_read(sandlock_pid, held, sizeof held) == 0) say("authority:%s", held);
    else say("authority-unavailable:%d", errno);

    char status[4096];
    size_t status_len = 0;
    int status_open = 1, lifeline = 1;
    while (sandlock_status < 0) {
        struct pollfd p[4 + TERM_POLLFDS] = {{chan, POLLIN, 0}, {sfd, POLLIN, 0},
                                             {status_open ? status_pipe[0] : -1, POLLIN, 0}, {canary_fd, POLLIN, 0}};
        term_pollfds(p + 4);
        if (poll(p, 4 + TERM_POLLFDS, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        term_pump(p + 4);
        if (p[3].revents) canary_pump((p[3].revents & (POLLHUP | POLLERR)) != 0);
        if (p[0].revents) {
            char cmd[64];
            ssize_t n = recv(chan, cmd, sizeof cmd - 1, MSG_DONTWAIT);
            if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR))) {
                lifeline = 0; /* end of file: the supervisor is gone, however it died */
                break;
            }
            if (n > 0) {
                cmd[n] = 0;
                command(cmd);
            }
        }
        if (status_open && p[2].revents) {
            ssize_t n = read(status_pipe[0], status + status_len, sizeof status - 1 - status_len);
            if (n > 0) status_len += n;
            else if (n == 0 || errno != EINTR) status_open = 0;
        }
        if (p[1].revents) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) == sizeof si) {
                /* In the caller's foreground group (the CLI), the terminal's resize reaches us directly. */
                if (si.ssi_signo == SIGWINCH) term_resize();
            }
            reap();
        }
    }
    if (!lifeline) {
        canary_close();
        kill_tree();
        remove_state();
        if (cgroup_dir) rmdir(cgroup_dir); /* nothing of the launch is left behind, the group included */
        return EXIT_LIFELINE;
    }
    /* sandlock wrote its status before it exited; take what is left in the pipe without blocking. */
    fcntl(status_pipe[0], F_SETFL, O_NONBLOCK);
    for (ssize_t n; status_open && status_len < sizeof status - 1
                    && (n = read(status_pipe[0], status + status_len, sizeof status - 1 - status_len)) > 0;) {
        status_len += n;
    }
    status[status_len] = 0;
    canary_pump(1); /* a line still in the FIFO (the program ended before the loop read it) */
    /* Sandlock 0.8.6 leaves background descendants running when it exits (upstream #251): sweep them. */
    int swept = kill_tree();
    remove_state();
    term_drain(); /* the program's last output still reaches the caller's terminal */
    for (char *line = strtok(status, "\n"); line; line = strtok(NULL, "\n")) say("status:%s", line);
    say("swept:%d", swept);
    if (cgroup_dir && rmdir(cgroup_dir) == 0) say("cgroup-removed");
    if (WIFSIGNALED(sandlock_status)) {
        say("exit:signal:%d", WTERMSIG(sandlock_status));
        return 128 + WTERMSIG(sandlock_status);
    }
    say("exit:code:%d", WEXITSTATUS(sandlock_status));
    return WEXITSTATUS(sandlock_status);
}
