/*
 * The launch, host-driven: the agent forks the program child (which confines itself, cage.c, and execs),
 * then relays stdin frames to its stdin pipe, its stdout/stderr pipes to frames and signal frames to it.
 * When the program ends the rest of its tree is killed (cgroup.kill), the pipes are drained, and the exit
 * frame is the last thing the agent says; the host then kills the whole VM.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/random.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "cage.h"
#include "canary.h"
#include "egress.h"
#include "proto.h"
#include "run.h"
#include "view.h"

#define STDIN_QUEUE_MAX (1u << 20)

static int write_text(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t w = write(fd, text, strlen(text));
    close(fd);
    return w == (ssize_t)strlen(text) ? 0 : -1;
}

/* Entropy and the clock first: every clone of the template shares the same RNG state and a frozen clock. */
static int seed_and_clock(const struct plan *p, char *err, size_t cap) {
    struct {
        struct rand_pool_info info;
        unsigned char buf[256];
    } e;
    e.info.entropy_count = (int)p->seed.n * 8;
    e.info.buf_size = (int)p->seed.n;
    memcpy(e.buf, p->seed.p, p->seed.n);
    int fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
    int rc = fd < 0 ? -1 : ioctl(fd, RNDADDENTROPY, &e.info);
    if (fd >= 0) close(fd);
    if (rc < 0) return snprintf(err, cap, "entropy:%s", strerror(errno)), -1;
    struct timespec t = {.tv_sec = (time_t)p->clock_sec, .tv_nsec = p->clock_nsec};
    if (clock_settime(CLOCK_REALTIME, &t) < 0) return snprintf(err, cap, "clock:%s", strerror(errno)), -1;
    return 0;
}

static int cgroup_limits(const struct plan *p, char *err, size_t cap) {
    char v[32];
    if (p->memory_max >= 0) {
        snprintf(v, sizeof v, "%lld", (long long)p->memory_max);
        if (write_text(TREE_CGROUP "/memory.max", v) < 0 || write_text(TREE_CGROUP "/memory.swap.max", "0") < 0)
            return snprintf(err, cap, "cgroup:memory.max: %s", strerror(errno)), -1;
    }
    if (p->pids_max >= 0) {
        snprintf(v, sizeof v, "%lld", (long long)p->pids_max);
        if (write_text(TREE_CGROUP "/pids.max", v) < 0)
            return snprintf(err, cap, "cgroup:pids.max: %s", strerror(errno)), -1;
    }
    return 0;
}

/* The program child: never returns. Reports a setup failure ("R") or an exec failure ("E") on status. */
static void child(const struct plan *p, int in, int out, int errfd, int status, int procs) {
    char why[512];
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setsid();
    if (procs >= 0 && write(procs, "0", 1) != 1) {
        dprintf(status, "Rcgroup_join:%s", strerror(errno));
        _exit(121);
    }
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0) {
        dprintf(status, "Rfd_seal:%s", strerror(errno));
        _exit(121);
    }
    /* only stdio and the status pipe survive; the status pipe is close-on-exec */
    for (int fd = 3; fd < 1024; fd++)
        if (fd != status) close(fd);
    if (chroot(VIEW_ROOT) < 0) {
        dprintf(status, "Rmount:chroot: %s", strerror(errno));
        _exit(121);
    }
    if (chdir(p->cwd) < 0) {
        dprintf(status, "Rmissing_path:working directory %s: %s", p->cwd, strerror(errno));
        _exit(121);
    }
    if (cage_rlimits(p, why, sizeof why) < 0 || cage_landlock(p, why, sizeof why) < 0
        || cage_identity(p, why, sizeof why) < 0 || cage_seccomp(p, why, sizeof why) < 0) {
        dprintf(status, "R%s", why);
        _exit(121);
    }
    if (p->canaries) {
        char report[512];
        if (canary_run(p, report, sizeof report) < 0) {
            dprintf(status, "Rcanary_escaped:%s", report);
            _exit(125);
        }
        /* "C" report NUL: the agent passes it on in the started frame; EOF (close-on-exec) still means exec'd */
        dprintf(status, "C%s%c", report, 0);
    }
    execve(p->program, p->argv, p->envp);
    dprintf(status, "E%d", errno);
    _exit(errno == ENOENT ? 127 : 126);
}

struct relay {
    int port, in_w, out_r, err_r, sigfd;
    pid_t pid;
    int program_done, status;
    unsigned char *queue;
    size_t qlen, qoff;
    int stdin_eof;
    struct net *net; /* the proxy port's relay, NULL without R_PROXY */
};

static void kill_tree(int sig) {
    char line[32];
    if (sig == SIGKILL && write_text(TREE_CGROUP "/cgroup.kill", "1") == 0) return;
    FILE *f = fopen(TREE_CGROUP "/cgroup.procs", "r");
    if (!f) return;
    while (fgets(line, sizeof line, f)) kill((pid_t)atoi(line), sig);
    fclose(f);
}

static void host_frame(struct relay *r, int type, unsigned char *payload, size_t len) {
    if (r->net && net_host_frame(r->net, r->port, type, payload, len)) return;
    if (type == F_STDIN && r->in_w >= 0 && !r->stdin_eof) {
        unsigned char *q = realloc(r->queue, r->qlen + len);
        if (!q) return;
        r->queue = q;
        memcpy(q + r->qlen, payload, len);
        r->qlen += len;
    } else if (type == F_STDIN_EOF) {
        r->stdin_eof = 1;
    } else if (type == F_SIGNAL && len == 2 && !r->program_done) {
        int sig = payload[0];
        if (payload[1] == 0) kill(r->pid, sig);
        else if (payload[1] == 1) kill(-r->pid, sig);
        else kill_tree(sig);
    } else if (type == F_PING) {
        frame_send(r->port, F_PONG, payload, len < GUEST_MAX_PAYLOAD ? len : GUEST_MAX_PAYLOAD);
    }
}

static void flush_stdin(struct relay *r) {
    while (r->qoff < r->qlen) {
        ssize_t w = write(r->in_w, r->queue + r->qoff, r->qlen - r->qoff);
        if (w < 0) {
            if (errno == EAGAIN) return;
            r->qoff = r->qlen; /* the program closed its stdin: drop what is queued */
            break;
        }
        r->qoff += (size_t)w;
    }
    r->qoff = r->qlen = 0;
    if (r->stdin_eof && r->in_w >= 0) {
        close(r->in_w);
        r->in_w = -1;
    }
}

static int pump(int from, int port, int type) {
    static char buf[GUEST_MAX_PAYLOAD];
    ssize_t n = read(from, buf, sizeof buf);
    if (n > 0) frame_send(port, type, buf, (size_t)n);
    return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN)) ? 0 : -1; /* -1: end of file */
}

static void reap(struct relay *r) {
    struct signalfd_siginfo si;
    while (read(r->sigfd, &si, sizeof si) > 0) {
    }
    int st;
    pid_t w;
    while ((w = waitpid(-1, &st, WNOHANG)) > 0)
        if (w == r->pid && !r->program_done) {
            r->program_done = 1;
            r->status = st;
            kill_tree(SIGKILL); /* daemons and orphans end with the program */
        }
}

static void relay_loop(struct relay *r, struct frame_reader *fr) {
    long drain_deadline = -1;
    while (r->out_r >= 0 || r->err_r >= 0 || !r->program_done) {
        struct pollfd pf[5 + 2 + NET_MAX_STREAMS];
        int owner[2 + NET_MAX_STREAMS];
        int n = 0, net_at = 0, net_n = 0;
        int port_i = -1, in_i = -1, out_i = -1, err_i = -1;
        if (r->qlen < STDIN_QUEUE_MAX) pf[port_i = n++] = (struct pollfd){r->port, POLLIN, 0};
        if (r->in_w >= 0 && (r->qlen > r->qoff || r->stdin_eof)) pf[in_i = n++] = (struct pollfd){r->in_w, POLLOUT, 0};
        if (r->out_r >= 0) pf[out_i = n++] = (struct pollfd){r->out_r, POLLIN, 0};
        if (r->err_r >= 0) pf[err_i = n++] = (struct pollfd){r->err_r, POLLIN, 0};
        if (r->net) {
            net_at = n;
            net_n = net_pollfds(r->net, pf + n, owner, 2 + NET_MAX_STREAMS);
            n += net_n;
        }
        pf[n++] = (struct pollfd){r->sigfd, POLLIN, 0};
        int timeout = drain_deadline < 0 ? -1 : (int)(drain_deadline - boot_now_ms());
        if (drain_deadline >= 0 && timeout <= 0) break; /* a descriptor kept open outside the tree: stop waiting */
        if (poll(pf, (nfds_t)n, timeout) < 0 && errno != EINTR) break;
        if (port_i >= 0 && pf[port_i].revents & (POLLIN | POLLHUP)) {
            if (frame_fill(fr, r->port) == 0) break; /* the host is gone */
            int type;
            unsigned char *payload;
            size_t len;
            while (frame_next(fr, &type, &payload, &len) == 1) {
                host_frame(r, type, payload, len);
                frame_consume(fr, len);
            }
        }
        if (in_i >= 0 && pf[in_i].revents) flush_stdin(r);
        if (out_i >= 0 && pf[out_i].revents && pump(r->out_r, r->port, F_STDOUT) < 0) {
            close(r->out_r);
            r->out_r = -1;
        }
        if (err_i >= 0 && pf[err_i].revents && pump(r->err_r, r->port, F_STDERR) < 0) {
            close(r->err_r);
            r->err_r = -1;
        }
        if (r->net) net_ready(r->net, r->port, pf + net_at, owner, net_n);
        if (pf[n - 1].revents) reap(r);
        if (r->program_done && drain_deadline < 0) drain_deadline = boot_now_ms() + 2000;
    }
}

void run_launch(int port, struct frame_reader *fr, struct plan *p, long plan_ms) {
    char err[600];
    if (seed_and_clock(p, err, sizeof err) < 0 || view_build(p, err, sizeof err) < 0
        || cgroup_limits(p, err, sizeof err) < 0) {
        frame_sendf(port, F_REFUSED, "%s", err);
        return;
    }
    /* the proxy port exists before the program does, so it can never be the program's */
    static struct net net;
    if (p->proxy_port && net_listen(&net, p->proxy_port, err, sizeof err) < 0) {
        frame_sendf(port, F_REFUSED, "%s", err);
        return;
    }
    int in[2], out[2], er[2], st[2];
    if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(er, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0) {
        frame_sendf(port, F_REFUSED, "internal:pipe: %s", strerror(errno));
        return;
    }
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    int sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
    int procs = open(TREE_CGROUP "/cgroup.procs", O_WRONLY | O_CLOEXEC);
    long fork_ms = boot_now_ms();
    pid_t pid = fork();
    if (pid == 0) child(p, in[0], out[1], er[1], st[1], procs);
    if (procs >= 0) close(procs);
    close(in[0]);
    close(out[1]);
    close(er[1]);
    close(st[1]);
    if (pid < 0) {
        frame_sendf(port, F_REFUSED, "fork:%s", strerror(errno));
        return;
    }
    /* The child's messages until exec closes the pipe: an optional canary report "C...\0", then "R"/"E" on failure. */
    char msg[1200];
    size_t got = 0;
    for (ssize_t r; got < sizeof msg - 1 && ((r = read(st[0], msg + got, sizeof msg - 1 - got)) > 0 || (r < 0 && errno == EINTR));)
        if (r > 0) got += (size_t)r;
    close(st[0]);
    msg[got] = 0;
    const char *canaries = "";
    char *why = msg;
    if (got > 0 && msg[0] == 'C') {
        canaries = msg + 1;
        why = msg + strlen(msg) + 1;
        if (why > msg + got) why = msg + got;
    }
    if (why < msg + got && *why) {
        waitpid(pid, NULL, 0);
        if (why[0] == 'E') frame_sendf(port, F_EXEC_FAILED, "%s", why + 1);
        else frame_sendf(port, F_REFUSED, "%s", why + 1);
        return;
    }
    char authority[512];
    if (cage_read_authority(pid, authority, sizeof authority) < 0) snprintf(authority, sizeof authority, "unavailable");
    frame_sendf(port, F_STARTED, "plan_ms=%ld\nfork_ms=%ld\nexec_ms=%ld\nseccomp_skipped=%d\nseccomp_us=%ld\n"
                "authority:%s\nfds:kept=0,1,2\n%s", plan_ms, fork_ms, boot_now_ms(), p->seccomp_skipped, p->seccomp_us,
                authority, canaries);
    fcntl(in[1], F_SETFL, O_NONBLOCK);
    struct relay r = {.port = port, .in_w = in[1], .out_r = out[0], .err_r = er[0], .sigfd = sigfd, .pid = pid,
                      .net = p->proxy_port ? &net : NULL};
    relay_loop(&r, fr);
    reap(&r);
    char stats[256] = "";
    FILE *f = fopen(TREE_CGROUP "/memory.peak", "r");
    if (f) {
        long long peak = 0;
        if (fscanf(f, "%lld", &peak) == 1) snprintf(stats, sizeof stats, "memory_peak=%lld\n", peak);
        fclose(f);
    }
    if (WIFSIGNALED(r.status)) frame_sendf(port, F_EXIT, "signal:%d\ntree_killed=1\n%s", WTERMSIG(r.status), stats);
    else frame_sendf(port, F_EXIT, "code:%d\ntree_killed=1\n%s", WEXITSTATUS(r.status), stats);
}
