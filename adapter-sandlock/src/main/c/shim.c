/*
 * aasm-sandlock-guard exec <filter> [canary:...] -- <program> [args...]
 *
 * Run by sandlock as the program it confines (sandlock's own setup is done: Landlock, its seccomp filter,
 * no_new_privs), this installs aasm's seccomp filter and then executes the program in the same process,
 * so the filter holds for the program and everything it starts, and for nothing of sandlock's. First,
 * still under sandlock's boundary alone, it runs the launch's canaries (canary.c). <filter>
 * is a classic BPF program (struct sock_filter[], 8 bytes each) in lower-case hex, built by the adapter.
 * Nothing runs unless the filter is in force: a filter that cannot be installed ends the launch with 125
 * (aasm's "refused before the program started"); a program that cannot be executed, with 127 (not found)
 * or 126, as sandlock itself would.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "canary.h"
#include "shim.h"

#define MAX_INSNS 4096

static int nibble(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static int decode(const char *hex, struct sock_filter *out, size_t *count) {
    size_t len = strlen(hex);
    if (len == 0 || len % 16 != 0 || len / 16 > MAX_INSNS) return -1;
    unsigned char *bytes = (unsigned char *)out;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        bytes[i] = (unsigned char)(hi << 4 | lo);
    }
    *count = len / 16;
    return 0;
}

int shim_main(int argc, char **argv) {
    static struct sock_filter insns[MAX_INSNS];
    size_t count;
    int dashes = 3;
    while (dashes < argc && strncmp(argv[dashes], "canary:", 7) == 0) dashes++;
    if (argc < dashes + 2 || strcmp(argv[dashes], "--") != 0 || argv[dashes + 1][0] != '/'
            || decode(argv[2], insns, &count) < 0) {
        fprintf(stderr, "%s exec: usage: exec <hex filter> [canary:...] -- /absolute/program [args...]\n", argv[0]);
        return 125;
    }
    /* Inside sandlock's boundary, before aasm's filter: the canaries test sandlock's boundary alone. */
    int verdict = canary_run(dashes - 3, argv + 3);
    if (verdict != 0) return verdict;
    /* Already set by sandlock; set again so the filter never depends on it. */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
        fprintf(stderr, "aasm: cannot set no_new_privs before the program: %s\n", strerror(errno));
        return 125;
    }
    struct sock_fprog prog = {(unsigned short)count, insns};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
        fprintf(stderr, "aasm: cannot install the launch's seccomp filter (%zu instructions): %s; nothing ran\n",
                count, strerror(errno));
        return 125;
    }
    execv(argv[dashes + 1], argv + dashes + 1);
    int err = errno;
    fprintf(stderr, "aasm: cannot execute %s: %s\n", argv[dashes + 1], strerror(err));
    return err == ENOENT ? 127 : 126;
}
