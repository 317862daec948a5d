/*
 * The program never shares the caller's terminal session. It always runs in a new session; when the
 * caller's stdin is a terminal, it gets a pseudo-terminal of the boundary's own devpts instead, which the
 * launcher relays to the caller's terminal (as `ssh -t` does): line editing, window size (SIGWINCH),
 * Ctrl-C and Ctrl-Z keep working inside, and nothing the program does reaches the caller's session
 * (keystroke injection with TIOCSTI is also denied by the seccomp baseline).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "plan.h"
#include "pty.h"

static struct termios saved;
static int saved_set;
static pid_t owner;

/* The caller's terminal may be ours to control (cold path) or not (resident kernel): a background job of
 * its session must not take it over, or reading it would stop the launcher with SIGTTIN. */
static int usable_terminal(void) {
    if (!isatty(0)) return 0;
    pid_t sid;
    if (ioctl(0, TIOCGSID, &sid) == 0 && sid == getsid(0)) return tcgetpgrp(0) == getpgrp();
    return 1;
}

int pty_output_fd(void) {
    return isatty(1) ? 1 : isatty(2) ? 2 : -1;
}

int pty_open(char *slave, unsigned long cap) {
    if (!usable_terminal()) return -1;
    int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (m < 0) refuse("terminal", "open /dev/ptmx in the boundary: %s", strerror(errno));
    if (unlockpt(m) < 0 || ptsname_r(m, slave, cap) != 0) refuse("terminal", "pseudo-terminal: %s", strerror(errno));
    struct termios t;
    if (tcgetattr(0, &t) == 0) {
        tcsetattr(m, TCSANOW, &t); /* the program starts with the caller's modes (echo, erase character, ...) */
        saved = t;
        saved_set = 1;
        owner = getpid();
        cfmakeraw(&t);
        if (tcsetattr(0, TCSANOW, &t) < 0) refuse("terminal", "raw mode: %s", strerror(errno));
    }
    pty_resize(m);
    fcntl(m, F_SETFL, O_NONBLOCK);
    return m;
}

void pty_resize(int master) {
    struct winsize ws;
    int src = isatty(1) ? 1 : 0;
    if (ioctl(src, TIOCGWINSZ, &ws) == 0) ioctl(master, TIOCSWINSZ, &ws);
}

void pty_restore(void) {
    if (saved_set && getpid() == owner) {
        tcsetattr(0, TCSANOW, &saved);
        saved_set = 0;
    }
}

void pty_attach(const char *slave) {
    int out_tty = isatty(1), err_tty = isatty(2);
    int s = open(slave, O_RDWR);
    if (s < 0) refuse("terminal", "open %s: %s", slave, strerror(errno));
    if (ioctl(s, TIOCSCTTY, 0) < 0) refuse("terminal", "controlling terminal %s: %s", slave, strerror(errno));
    if (dup2(s, 0) < 0 || (out_tty && dup2(s, 1) < 0) || (err_tty && dup2(s, 2) < 0))
        refuse("terminal", "dup2: %s", strerror(errno));
    if (s > 2) close(s);
}
