/*
 * Sandlock runs the program in the session it was started in, and makes its process group the foreground
 * of stdin when stdin is a terminal. Started as is, the program would share the caller's session and
 * controlling terminal (its foreground job, keystroke injection). So the guard starts sandlock in a new
 * session, and when the caller's stdin is a terminal it gives that session a pseudo-terminal of its own,
 * which the guard relays to the caller's terminal (as `ssh -t` does): line editing, window size, Ctrl-C
 * and Ctrl-Z keep working for the program, and nothing the program does reaches the caller's session.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "terminal.h"

static int master = -1, held_slave = -1, out_fd = -1, in_open = 1;
static char slave_path[64];
static struct termios saved;
static int saved_set;
static pid_t owner;

struct buf {
    char data[16384];
    size_t len, off;
};
static struct buf to_program, to_caller;

/* The caller's terminal may be ours to control (the CLI) or not (the resident kernel's client): a
 * background job of its session must not take it over, or reading it would stop it with SIGTTIN. */
static int usable(void) {
    if (!isatty(0)) return 0;
    pid_t sid;
    if (ioctl(0, TIOCGSID, &sid) == 0 && sid == getsid(0)) return tcgetpgrp(0) == getpgrp();
    return 1;
}

int term_open(void) {
    if (!usable()) return 1;
    master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (unlockpt(master) < 0 || ptsname_r(master, slave_path, sizeof slave_path) != 0) return -1;
    /* Held until the end, so the master never reads EIO before the program has opened its side. */
    held_slave = open(slave_path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (held_slave < 0) return -1;
    struct termios t;
    if (tcgetattr(0, &t) == 0) {
        tcsetattr(held_slave, TCSANOW, &t); /* the program starts with the caller's modes (echo, erase, ...) */
        saved = t;
        saved_set = 1;
        owner = getpid();
        cfmakeraw(&t);
        if (tcsetattr(0, TCSANOW, &t) < 0) return -1;
    }
    term_resize();
    fcntl(master, F_SETFL, O_NONBLOCK);
    out_fd = isatty(1) ? 1 : isatty(2) ? 2 : -1;
    return 0;
}

int term_attach(void) {
    if (master < 0) return 0;
    int out_tty = isatty(1), err_tty = isatty(2);
    int s = open(slave_path, O_RDWR | O_CLOEXEC);
    if (s < 0) return errno;
    if (ioctl(s, TIOCSCTTY, 0) < 0) return errno;
    if (dup2(s, 0) < 0 || (out_tty && dup2(s, 1) < 0) || (err_tty && dup2(s, 2) < 0)) return errno;
    close(s);
    return 0;
}

void term_pollfds(struct pollfd *pf) {
    int on = master >= 0;
    pf[0] = (struct pollfd){on && in_open && to_program.len == 0 ? 0 : -1, POLLIN, 0};
    pf[1] = (struct pollfd){on ? master : -1, (short)((to_caller.len ? 0 : POLLIN) | (to_program.len ? POLLOUT : 0)), 0};
    pf[2] = (struct pollfd){on && to_caller.len && out_fd >= 0 ? out_fd : -1, POLLOUT, 0};
}

static void flush(int fd, struct buf *b) {
    if (fd < 0) { /* no terminal to show it on: the program's output is dropped, as a closed terminal would */
        b->len = 0;
        return;
    }
    ssize_t n = write(fd, b->data + b->off, b->len);
    if (n > 0) {
        b->off += (size_t)n;
        b->len -= (size_t)n;
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        b->len = 0;
    }
}

void term_pump(const struct pollfd *pf) {
    if (master < 0) return;
    if (pf[0].revents && to_program.len == 0) {
        ssize_t n = read(0, to_program.data, sizeof to_program.data);
        if (n > 0) {
            to_program.len = (size_t)n;
            to_program.off = 0;
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            in_open = 0;
        }
    }
    if (to_program.len) flush(master, &to_program);
    if ((pf[1].revents & (POLLIN | POLLHUP | POLLERR)) && to_caller.len == 0) {
        ssize_t n = read(master, to_caller.data, sizeof to_caller.data);
        if (n > 0) {
            to_caller.len = (size_t)n;
            to_caller.off = 0;
        }
    }
    if (to_caller.len && (pf[2].revents || out_fd < 0)) flush(out_fd, &to_caller);
}

void term_resize(void) {
    struct winsize ws;
    if (master >= 0 && ioctl(isatty(1) ? 1 : 0, TIOCGWINSZ, &ws) == 0) ioctl(master, TIOCSWINSZ, &ws);
}

void term_drain(void) {
    for (int i = 0; i < 4096 && master >= 0; i++) {
        if (to_caller.len == 0) {
            ssize_t n = read(master, to_caller.data, sizeof to_caller.data);
            if (n <= 0) break;
            to_caller.len = (size_t)n;
            to_caller.off = 0;
        }
        size_t before = to_caller.len;
        flush(out_fd, &to_caller);
        if (to_caller.len == before) break;
    }
    term_restore();
}

void term_restore(void) {
    if (saved_set && getpid() == owner) {
        tcsetattr(0, TCSANOW, &saved);
        saved_set = 0;
    }
}
