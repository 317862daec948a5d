/*
 * Test-only actor for RealSandlockSurroundingsTest: the calls the shell cannot make. Each action writes
 * what happened to OUT (the effect the test checks) and a diagnostic to stderr.
 *
 *   hardening-actor clone3-userns OUT     a child made by clone3(CLONE_NEWUSER) writes its user namespace
 *   hardening-actor lsm-list OUT          lsm_list_modules (461), a call newer than the filter's table
 *   hardening-actor inotify DIR OUT       watches DIR for 3 s and writes the names it saw created
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int fail(const char *what) {
    fprintf(stderr, "%s: errno=%d (%s)\n", what, errno, strerror(errno));
    return 1;
}

static int put(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return fail("open out");
    if (write(fd, text, strlen(text)) < 0) return fail("write out");
    close(fd);
    return 0;
}

struct clone_args_v0 {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

static int clone3_userns(const char *out) {
    struct clone_args_v0 a = {.flags = 0x10000000 /* CLONE_NEWUSER */, .exit_signal = SIGCHLD};
    long pid = syscall(435, &a, sizeof a);
    if (pid < 0) return fail("clone3");
    if (pid == 0) {
        char ns[128] = "", text[160];
        ssize_t n = readlink("/proc/self/ns/user", ns, sizeof ns - 1);
        if (n > 0) ns[n] = 0;
        snprintf(text, sizeof text, "child userns %s\n", ns);
        _exit(put(out, text));
    }
    waitpid((pid_t)pid, NULL, 0);
    return 0;
}

static int lsm_list(const char *out) {
    uint64_t ids[64];
    uint32_t size = sizeof ids;
    long n = syscall(461, ids, &size, 0);
    if (n < 0) return fail("lsm_list_modules");
    return put(out, "lsm_list_modules ran\n");
}

static int watch(const char *dir, const char *out) {
    int fd = inotify_init1(IN_CLOEXEC);
    if (fd < 0) return fail("inotify_init1");
    if (inotify_add_watch(fd, dir, IN_CREATE) < 0) return fail("inotify_add_watch");
    put(out, "armed\n");
    char buf[4096] __attribute__((aligned(8)));
    char names[2048] = "";
    struct pollfd p = {fd, POLLIN, 0};
    for (int i = 0; i < 30 && poll(&p, 1, 100) >= 0; i++) {
        if (!p.revents) continue;
        ssize_t n = read(fd, buf, sizeof buf);
        for (ssize_t off = 0; off < n;) {
            struct inotify_event *e = (struct inotify_event *)(buf + off);
            if (e->len) {
                strncat(names, e->name, sizeof names - strlen(names) - 2);
                strcat(names, "\n");
            }
            off += (ssize_t)sizeof *e + e->len;
        }
    }
    return put(out, names[0] ? names : "armed\n");
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "clone3-userns")) return clone3_userns(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "lsm-list")) return lsm_list(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "inotify")) return watch(argv[2], argv[3]);
    fprintf(stderr, "usage: %s clone3-userns OUT | lsm-list OUT | inotify DIR OUT\n", argv[0]);
    return 2;
}
