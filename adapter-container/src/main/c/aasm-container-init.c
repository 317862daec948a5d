/*
 * aasm-container-init: the container's first process (GUARD.md, "The init").
 *
 *     /.aasm-init [-x] [-s ROWS:COLS] [canary:...] -- <program> [args...]
 *
 * Bound read-only into every container whose policy lets processes be created. It starts the program in
 * a process group of its own, passes every signal it receives on to that group (the engine's "kill" reaches
 * the init only), reaps every orphan, and exits with the program's status: its exit code, or 128+N when a
 * signal N killed it. It exists because a program that is itself pid 1 ignores every signal it does not
 * handle, and because the engine's own init lives at a path a granted /sbin would hide. With -s (a container
 * with a terminal) it first gives its terminal the caller's size, so the program never starts at 0x0. With
 * canary words it then tests the container's boundary from inside before the program exists (init-canary.h).
 *
 * With -x (a container whose policy denies creating processes, so nothing may fork the program) it makes the
 * canaries and then becomes the program by execve in its own process: the program is still the container's
 * pid 1, its process tree the same as without the init, and the attempts were made by the very process,
 * under the very seccomp profile, that the program inherits.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init-canary.h"

int main(int argc, char **argv) {
    int first = 1, in_place = 0;
    unsigned rows = 0, cols = 0;
    if (argc > 1 && !strcmp(argv[1], "-x")) in_place = first = 2;
    if (argc > first + 2 && !strcmp(argv[first], "-s") && sscanf(argv[first + 1], "%u:%u", &rows, &cols) == 2) {
        first += 2;
    }
    int canaries = first;
    while (first < argc && !strncmp(argv[first], "canary:", 7)) first++;
    if (first >= argc || strcmp(argv[first], "--") || first + 1 >= argc) {
        fprintf(stderr, "usage: aasm-container-init [-x] [-s ROWS:COLS] [canary:...] -- <program> [args...]\n");
        return 2;
    }
    if (rows && cols) {
        struct winsize ws = {.ws_row = (unsigned short) rows, .ws_col = (unsigned short) cols};
        ioctl(0, TIOCSWINSZ, &ws);
    }
    int verdict = canary_run(argv, canaries, first);
    if (verdict != 0) return verdict;
    first++;
    if (in_place) {
        execvp(argv[first], argv + first);
        int e = errno;
        fprintf(stderr, "aasm-init: exec %s failed: %s\n", argv[first], strerror(e));
        return e == ENOENT ? 127 : 126;
    }
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, NULL);
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "aasm-init: fork failed: %s\n", strerror(errno));
        return 125;
    }
    if (child == 0) {
        setpgid(0, 0);
        sigprocmask(SIG_UNBLOCK, &all, NULL);
        execvp(argv[first], argv + first);
        int e = errno;
        fprintf(stderr, "aasm-init: exec %s failed: %s\n", argv[first], strerror(e));
        _exit(e == ENOENT ? 127 : 126);
    }
    setpgid(child, child);
    for (;;) {
        siginfo_t si;
        int sig = sigwaitinfo(&all, &si);
        if (sig < 0) {
            continue;
        }
        if (sig != SIGCHLD) {
            /* the whole group, as a terminal would; the program itself if it left its group already */
            if (kill(-child, sig) < 0) kill(child, sig);
            continue;
        }
        int status;
        pid_t p;
        while ((p = waitpid(-1, &status, WNOHANG)) > 0) {
            if (p == child) {
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
        }
    }
}
