/*
 * Plan decoding. The plan is complete before anything is applied: a malformed record refuses the launch
 * with nothing mounted and nothing run. Strings are copied NUL-terminated; lengths are checked before any read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

static uint16_t be16(const unsigned char *p) {
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p) {
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* A NUL-free string of n bytes, copied with a terminator; NULL when it holds a NUL. */
static char *str(const unsigned char *p, size_t n) {
    if (memchr(p, 0, n)) return NULL;
    char *s = malloc(n + 1);
    if (!s) return NULL;
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

static int fail(char *err, size_t cap, const char *why) {
    snprintf(err, cap, "%s", why);
    return -1;
}

/* A record of the form u16 len, first string, second string (the rest). */
static int pair(const unsigned char *p, size_t n, char **a, char **b) {
    if (n < 2) return -1;
    size_t al = be16(p);
    if (al + 2 > n) return -1;
    *a = str(p + 2, al);
    *b = str(p + 2 + al, n - 2 - al);
    return *a && *b ? 0 : -1;
}

static int absolute(const char *s) {
    return s && s[0] == '/';
}

static int view_op(struct plan *o, int kind, const unsigned char *p, size_t n) {
    if (o->nops >= MAX_OPS) return -1;
    struct view_op *op = &o->ops[o->nops];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    switch (kind) {
    case R_BIND:
        if (n < 4) return -1;
        op->slot = p[0];
        op->flags = p[1];
        if (pair(p + 2, n - 2, &op->source, &op->target) < 0) return -1;
        break;
    case R_SYMLINK:
        if (pair(p, n, &op->target, &op->source) < 0) return -1;
        break;
    case R_FILE: {
        char *content;
        if (n < 2 || be16(p) + 2u > n) return -1;
        op->target = str(p + 2, be16(p));
        content = (char *)(p + 2 + be16(p));
        op->data.p = content;
        op->data.n = n - 2 - be16(p);
        if (!op->target) return -1;
        break;
    }
    default:
        op->target = str(p, n);
    }
    if (!absolute(op->target)) return -1;
    o->nops++;
    return 0;
}

static int record(struct plan *o, int type, const unsigned char *p, size_t n) {
    switch (type) {
    case R_PROGRAM:
        return o->program || !absolute(o->program = str(p, n)) ? -1 : 0;
    case R_ARG:
        if (o->argc >= MAX_ARGS || !(o->argv[o->argc] = str(p, n))) return -1;
        o->argc++;
        return 0;
    case R_ENV:
        if (o->envc >= MAX_ENVS || !(o->envp[o->envc] = str(p, n)) || !strchr(o->envp[o->envc], '=')) return -1;
        o->envc++;
        return 0;
    case R_CWD:
        return o->cwd || !absolute(o->cwd = str(p, n)) ? -1 : 0;
    case R_IDS:
        if (n != 8) return -1;
        o->have_ids = 1;
        o->uid = be32(p);
        o->gid = be32(p + 4);
        return 0;
    case R_SEED:
        if (n < 32 || n > 256) return -1;
        o->seed.p = (const char *)p;
        o->seed.n = n;
        return 0;
    case R_CLOCK:
        if (n != 12) return -1;
        o->have_clock = 1;
        o->clock_sec = be64(p);
        o->clock_nsec = be32(p + 8);
        return o->clock_nsec < 1000000000u ? 0 : -1;
    case R_SHARE:
        if (n < 4 || n - 3 > MAX_TAG || o->nshares >= MAX_SLOTS || p[0] >= MAX_SLOTS) return -1;
        for (size_t i = 3; i < n; i++) /* the tag becomes a mount source: letters, digits, '-' and '_' only */
            if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9')
                  || p[i] == '-' || p[i] == '_')) return -1;
        o->share_slot[o->nshares] = p[0];
        o->share_ro[o->nshares] = p[1] & SHARE_RO;
        o->share_transport[o->nshares] = p[2];
        memcpy(o->share_tag[o->nshares], p + 3, n - 3);
        o->share_tag[o->nshares][n - 3] = 0;
        o->nshares++;
        return 0;
    case R_BIND: case R_TMPFS: case R_SYMLINK: case R_DIR: case R_FILE: case R_PROC: case R_SYSFS:
        return view_op(o, type, p, n);
    case R_RLIMIT:
        if (n != 20 || o->nrlimits >= MAX_RLIMITS) return -1;
        o->rlimits[o->nrlimits].resource = be32(p);
        o->rlimits[o->nrlimits].soft = be64(p + 4);
        o->rlimits[o->nrlimits].hard = be64(p + 12);
        o->nrlimits++;
        return 0;
    case R_CGROUP:
        if (n != 9 || be64(p + 1) > INT64_MAX) return -1;
        if (p[0] == 1) o->memory_max = (int64_t)be64(p + 1);
        else if (p[0] == 2) o->pids_max = (int64_t)be64(p + 1);
        else return -1;
        return 0;
    case R_LANDLOCK:
        if (n < 2 || o->nrules >= MAX_RULES || p[0] < 1 || p[0] > 3) return -1;
        o->rules[o->nrules].cls = p[0];
        if (!absolute(o->rules[o->nrules].path = str(p + 1, n - 1))) return -1;
        o->nrules++;
        return 0;
    case R_SECCOMP:
        if (n < 6 || n > 65536 || o->nseccomp >= MAX_SECCOMP) return -1; /* the rest: filter.c */
        o->seccomp[o->nseccomp].p = (const char *)p;
        o->seccomp[o->nseccomp].n = n;
        o->nseccomp++;
        return 0;
    case R_FLAGS:
        if (n != 4) return -1;
        o->flags = be32(p);
        return 0;
    case R_CANARY:
        if (n < 4 + 8 || n > 4 + 64 || o->canaries) return -1;
        o->canaries = be32(p);
        for (size_t i = 4; i < n; i++)
            if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'))) return -1;
        memcpy(o->canary_nonce, p + 4, n - 4);
        o->canary_nonce[n - 4] = 0;
        return o->canaries && !(o->canaries & ~CANARY_ALL) ? 0 : -1;
    case R_CANARY_SYSCALL:
        if (n < 2 || n > 1024 || o->have_canary_syscall) return -1; /* the names: filter.c */
        o->have_canary_syscall = 1;
        o->canary_calls.p = (const char *)p;
        o->canary_calls.n = n;
        return 0;
    case R_CANARY_RLIMIT:
        if (n != 12 || o->have_canary_rlimit) return -1;
        o->have_canary_rlimit = 1;
        o->canary_rl_resource = be32(p);
        o->canary_rl_hard = be64(p + 4);
        return 0;
    case R_CANARY_NAMES:
        if (n != 6 || o->have_canary_names) return -1;
        o->have_canary_names = 1;
        o->canary_ns_addr = be32(p);
        o->canary_ns_port = be16(p + 4);
        return o->canary_ns_port ? 0 : -1;
    case R_PROXY:
        if (n != 2 || o->proxy_port) return -1;
        o->proxy_port = be16(p);
        return o->proxy_port ? 0 : -1;
    default:
        return -1;
    }
}

int plan_decode(const unsigned char *in, size_t len, struct plan *o, char *err, size_t cap) {
    memset(o, 0, sizeof *o);
    o->memory_max = o->pids_max = -1;
    if (len < 6 || memcmp(in, PLAN_MAGIC, 4)) return fail(err, cap, "bad_plan:magic");
    if (be16(in + 4) != PROTOCOL_VERSION) return fail(err, cap, "bad_plan:version");
    size_t at = 6;
    while (at < len) {
        if (len - at < 6) return fail(err, cap, "bad_plan:truncated record header");
        int type = be16(in + at);
        size_t n = be32(in + at + 2);
        if (n > len - at - 6) return fail(err, cap, "bad_plan:truncated record");
        if (record(o, type, in + at + 6, n) < 0) {
            snprintf(err, cap, "bad_plan:record 0x%02x malformed, repeated or unknown", type);
            return -1;
        }
        at += 6 + n;
    }
    if (!o->program || !o->cwd || o->argc == 0) return fail(err, cap, "bad_plan:program, argument or cwd missing");
    if (!o->seed.p || !o->have_clock) return fail(err, cap, "bad_plan:seed or clock missing");
    /* a canary without its target, or a target without its canary, is a host bug: refuse rather than guess */
    if (!(o->canaries & CANARY_SYSCALL) != !o->have_canary_syscall)
        return fail(err, cap, "bad_plan:the syscall canary and its call come together");
    if (!(o->canaries & CANARY_RESOURCE) != !o->have_canary_rlimit)
        return fail(err, cap, "bad_plan:the resource canary and its ceiling come together");
    if (!(o->canaries & CANARY_NAMES) != !o->have_canary_names)
        return fail(err, cap, "bad_plan:the name canary and its address come together");
    /* a transport this agent does not know would mount nothing the host meant: refuse before any mount */
    for (int i = 0; i < o->nshares; i++)
        if (o->share_transport[i] != SHARE_9P && o->share_transport[i] != SHARE_VIRTIOFS) {
            snprintf(err, cap, "bad_plan:share %d names transport %d, which this agent does not know (1 9p, 2 virtiofs)",
                     o->share_slot[i], o->share_transport[i]);
            return -1;
        }
    o->argv[o->argc] = NULL;
    o->envp[o->envc] = NULL;
    return 0;
}
