/*
 * Seccomp by name: the host sends each program as a default action and rules naming calls (with masked argument
 * comparisons); the agent compiles them here with its own statically linked libseccomp, for the architecture it
 * runs on. libseccomp also emits the audit-architecture check, as it did when the host compiled the programs.
 * A required name this architecture does not know refuses the plan; only rules the host marks optional (calls
 * that exist on some architectures only, such as fork, which arm64 does not have: nothing to deny there) are
 * skipped, and the started frame counts them.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "filter.h"

#define RULE_OPTIONAL 1u

struct cursor {
    const unsigned char *p;
    size_t n;
};

static int take(struct cursor *c, size_t k, const unsigned char **out) {
    if (c->n < k) return -1;
    *out = c->p;
    c->p += k;
    c->n -= k;
    return 0;
}

static uint64_t be(const unsigned char *p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | p[i];
    return v;
}

/* Only the actions the host lowers to: allow, or fail with an errno. */
static int action_ok(uint32_t a) {
    return a == SCMP_ACT_ALLOW || ((a & 0xffff0000u) == SCMP_ACT_ERRNO(0) && (a & 0xffffu) > 0 && (a & 0xffffu) < 4096);
}

static int name_ok(const unsigned char *s, size_t n) {
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_')) return 0;
    return 1;
}

static const char *machine(void) {
    static struct utsname u;
    return uname(&u) == 0 ? u.machine : "this architecture";
}

/* libseccomp 2.5 exports to a descriptor only: a memfd, read back whole. */
static int export(scmp_filter_ctx ctx, struct bytes *out) {
    int fd = memfd_create("aasm-seccomp", MFD_CLOEXEC);
    if (fd < 0) return -1;
    int rc = -1;
    off_t size;
    if (seccomp_export_bpf(ctx, fd) == 0 && (size = lseek(fd, 0, SEEK_CUR)) > 0 && size % 8 == 0
        && size / 8 <= 4096 && lseek(fd, 0, SEEK_SET) == 0) {
        char *buf = malloc((size_t)size);
        size_t got = 0;
        for (ssize_t r; buf && got < (size_t)size && (r = read(fd, buf + got, (size_t)size - got)) > 0;) got += (size_t)r;
        if (buf && got == (size_t)size) {
            out->p = buf;
            out->n = got;
            rc = 0;
        } else {
            free(buf);
        }
    }
    close(fd);
    return rc;
}

/* u32 default action, u16 rule count, then per rule: u32 action, u8 flags, u8 argc, u8 name length, name, and argc
 * comparisons of u8 arg, u8 op, u64 a, u64 b. */
static int compile_one(const struct bytes *d, int index, struct bytes *out, int *skipped, char *err, size_t cap) {
    struct cursor c = {(const unsigned char *)d->p, d->n};
    const unsigned char *h;
    if (take(&c, 6, &h) < 0 || !action_ok((uint32_t)be(h, 4))) goto malformed;
    uint32_t def = (uint32_t)be(h, 4);
    size_t rules = (size_t)be(h + 4, 2);
    scmp_filter_ctx ctx = seccomp_init(def);
    if (!ctx) {
        snprintf(err, cap, "seccomp:program %d: seccomp_init failed", index);
        return -1;
    }
    for (size_t r = 0; r < rules; r++) {
        const unsigned char *rh, *name, *cmp;
        if (take(&c, 7, &rh) < 0) goto malformed_ctx;
        uint32_t action = (uint32_t)be(rh, 4);
        unsigned flags = rh[4], argc = rh[5], nlen = rh[6];
        if (!action_ok(action) || flags & ~RULE_OPTIONAL || argc > 6 || nlen > 63 || take(&c, nlen, &name) < 0
            || !name_ok(name, nlen) || take(&c, 18u * argc, &cmp) < 0)
            goto malformed_ctx;
        char call[64];
        memcpy(call, name, nlen);
        call[nlen] = 0;
        int nr = seccomp_syscall_resolve_name(call);
        if (nr < 0) { /* unknown anywhere (__NR_SCMP_ERROR), or a pseudo-number: not a call on this architecture */
            if (flags & RULE_OPTIONAL) {
                (*skipped)++;
                continue;
            }
            seccomp_release(ctx);
            snprintf(err, cap, "seccomp:unknown system call '%s' on %s", call, machine());
            return -1;
        }
        struct scmp_arg_cmp args[6];
        for (unsigned i = 0; i < argc; i++) {
            const unsigned char *a = cmp + 18u * i;
            if (a[0] > 5 || a[1] < SCMP_CMP_NE || a[1] > SCMP_CMP_MASKED_EQ) goto malformed_ctx;
            args[i] = (struct scmp_arg_cmp){a[0], (enum scmp_compare)a[1], be(a + 2, 8), be(a + 10, 8)};
        }
        int rc = seccomp_rule_add_array(ctx, action, nr, argc, args);
        if (rc < 0) {
            seccomp_release(ctx);
            snprintf(err, cap, "seccomp:libseccomp refused the rule for %s: %s", call, strerror(-rc));
            return -1;
        }
    }
    if (c.n != 0) goto malformed_ctx;
    int rc = export(ctx, out);
    seccomp_release(ctx);
    if (rc < 0) snprintf(err, cap, "seccomp:program %d: exporting the compiled program failed", index);
    return rc;
malformed_ctx:
    seccomp_release(ctx);
malformed:
    snprintf(err, cap, "bad_plan:seccomp program %d malformed", index);
    return -1;
}

/* The canary's candidates (u8 length, name, ...) in the host's order: the first this architecture knows. */
static int canary_call(struct plan *p, char *err, size_t cap) {
    struct cursor c = {(const unsigned char *)p->canary_calls.p, p->canary_calls.n};
    while (c.n > 0) {
        const unsigned char *len, *name;
        if (take(&c, 1, &len) < 0 || take(&c, len[0], &name) < 0 || len[0] > 63 || !name_ok(name, len[0])) {
            snprintf(err, cap, "bad_plan:R_CANARY_SYSCALL malformed");
            return -1;
        }
        memcpy(p->canary_syscall_name, name, len[0]);
        p->canary_syscall_name[len[0]] = 0;
        int nr = seccomp_syscall_resolve_name(p->canary_syscall_name);
        if (nr >= 0) {
            p->canary_syscall = (uint32_t)nr;
            return 0;
        }
    }
    snprintf(err, cap, "bad_plan:none of the syscall canary's calls exists on %s", machine());
    return -1;
}

int filter_compile(struct plan *p, char *err, size_t cap) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < p->nseccomp; i++)
        if (compile_one(&p->seccomp[i], i, &p->bpf[i], &p->seccomp_skipped, err, cap) < 0) return -1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* the cost of compiling in the guest, reported in the started frame (docs/vm.md, "Seccomp by name") */
    p->seccomp_us = (long)(t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
    return p->have_canary_syscall ? canary_call(p, err, cap) : 0;
}
