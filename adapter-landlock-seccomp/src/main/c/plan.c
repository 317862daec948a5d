/* Decoding and validation of the plan message (PROTOCOL.md). Applies nothing: any problem refuses. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

#define MAX_SECCOMP_INSNS 4096

static uint32_t u32(const unsigned char *b) {
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t u64(const unsigned char *b) {
    return (uint64_t)u32(b) | (uint64_t)u32(b + 4) << 32;
}

static void *grow(void *arr, size_t count, size_t elem) {
    void *n = realloc(arr, (count + 1) * elem);
    if (!n) refuse("internal", "out of memory");
    return n;
}

static char *string(const unsigned char *b, uint32_t len, const char *what) {
    if (memchr(b, 0, len)) refuse("bad_string", "%s contains a NUL byte", what);
    char *s = malloc(len + 1);
    if (!s) refuse("internal", "out of memory");
    memcpy(s, b, len);
    s[len] = 0;
    return s;
}

static char *absolute(const unsigned char *b, uint32_t len, const char *what) {
    char *s = string(b, len, what);
    if (s[0] != '/') refuse("relative_path", "%s must be absolute: '%s'", what, s);
    return s;
}

static void need(uint32_t len, uint32_t want, const char *name) {
    if (len != want) refuse("malformed_record", "%s payload is %u bytes, expected %u", name, len, want);
}

static void once(int *seen, const char *name) {
    if (*seen) refuse("duplicate_record", "%s may occur once", name);
    *seen = 1;
}

static void record(struct plan *p, unsigned type, const unsigned char *v, uint32_t len, int *seen) {
    switch (type) {
    case 0x01:
        once(&seen[type], "PROGRAM");
        p->program = absolute(v, len, "PROGRAM");
        break;
    case 0x02:
        p->argv = grow(p->argv, p->argc + 1, sizeof *p->argv);
        p->argv[p->argc++] = string(v, len, "ARG");
        break;
    case 0x03: {
        char *e = string(v, len, "ENV");
        char *eq = strchr(e, '=');
        if (!eq || eq == e) refuse("bad_string", "ENV entry '%s' is not NAME=value", e);
        p->envp = grow(p->envp, p->envc + 1, sizeof *p->envp);
        p->envp[p->envc++] = e;
        break;
    }
    case 0x04:
        once(&seen[type], "CWD");
        p->cwd = absolute(v, len, "CWD");
        break;
    case 0x05:
        once(&seen[type], "TERMINAL");
        need(len, 0, "TERMINAL");
        p->terminal = 1;
        break;
    case 0x10:
        once(&seen[type], "NAMESPACES");
        need(len, 4, "NAMESPACES");
        p->ns = u32(v);
        if (p->ns & ~(uint32_t)NS_ALL) refuse("unknown_namespace", "namespace bits 0x%x", p->ns & ~(uint32_t)NS_ALL);
        break;
    case 0x11:
        once(&seen[type], "USER_MAP");
        need(len, 16, "USER_MAP");
        for (int i = 0; i < 4; i++) p->map[i] = u32(v + 4 * i);
        p->has_usermap = 1;
        break;
    case 0x12:
        once(&seen[type], "MOUNT_PROC");
        need(len, 0, "MOUNT_PROC");
        p->mount_proc = 1;
        break;
    case 0x13: {
        if (len < 12) refuse("malformed_record", "VIEW_OP payload of %u bytes", len);
        uint32_t op = u32(v), flags = u32(v + 4), alen = u32(v + 8);
        if (alen > len - 12) refuse("malformed_record", "VIEW_OP first field length %u overruns the record", alen);
        if (op < VOP_ROOT || op > VOP_DIR) refuse("malformed_record", "VIEW_OP kind %u", op);
        if (op == VOP_ROOT ? (p->nview != 0 || flags > VIEW_BASE_HOST_RO) : (p->nview == 0 || (flags & ~(uint32_t)VF_ALL)))
            refuse("malformed_record", "VIEW_OP %u with flags 0x%x at position %zu (ROOT comes first, once)", op, flags,
                   p->nview);
        p->view = grow(p->view, p->nview + 1, sizeof *p->view);
        struct viewop *o = &p->view[p->nview++];
        o->op = op;
        o->flags = flags;
        o->fd = -1;
        o->a = string(v + 12, alen, "VIEW_OP first field");
        o->b = string(v + 12 + alen, len - 12 - alen, "VIEW_OP second field");
        if (op != VOP_ROOT && o->b[0] != '/') refuse("relative_path", "VIEW_OP target must be absolute: '%s'", o->b);
        if (op == VOP_BIND && o->a[0] != '/') refuse("relative_path", "VIEW_OP source must be absolute: '%s'", o->a);
        if (op == VOP_SYMLINK && o->a[0] == 0) refuse("bad_string", "VIEW_OP symlink %s has an empty target", o->b);
        break;
    }
    case 0x14:
        once(&seen[type], "LOOPBACK_UP");
        need(len, 0, "LOOPBACK_UP");
        p->lo_up = 1;
        break;
    case 0x15: {
        need(len, 2, "RELAY_TCP_PORT");
        uint16_t port = (uint16_t)(v[0] | v[1] << 8);
        if (port == 0) refuse("malformed_record", "RELAY_TCP_PORT 0");
        for (size_t i = 0; i < p->nrelay; i++)
            if (p->relay_ports[i] == port) refuse("duplicate_record", "RELAY_TCP_PORT %u given twice", port);
        if (p->nrelay >= PLAN_MAX_RELAY_PORTS)
            refuse("malformed_record", "more than %d RELAY_TCP_PORT records", PLAN_MAX_RELAY_PORTS);
        p->relay_ports = grow(p->relay_ports, p->nrelay + 1, sizeof *p->relay_ports);
        p->relay_ports[p->nrelay++] = port;
        break;
    }
    case 0x16: {
        need(len, 2, "RELAY_UDP_PORT");
        uint16_t port = (uint16_t)(v[0] | v[1] << 8);
        if (port == 0) refuse("malformed_record", "RELAY_UDP_PORT 0");
        for (size_t i = 0; i < p->nrelay_udp; i++)
            if (p->relay_udp_ports[i] == port) refuse("duplicate_record", "RELAY_UDP_PORT %u given twice", port);
        if (p->nrelay_udp >= PLAN_MAX_RELAY_PORTS)
            refuse("malformed_record", "more than %d RELAY_UDP_PORT records", PLAN_MAX_RELAY_PORTS);
        p->relay_udp_ports = grow(p->relay_udp_ports, p->nrelay_udp + 1, sizeof *p->relay_udp_ports);
        p->relay_udp_ports[p->nrelay_udp++] = port;
        break;
    }
    case 0x17: {
        once(&seen[type], "RELAY_PROXY");
        if (len < 5) refuse("malformed_record", "RELAY_PROXY needs a port, a preamble and a path");
        uint16_t port = (uint16_t)(v[0] | v[1] << 8);
        uint16_t plen = (uint16_t)(v[2] | v[3] << 8);
        if (port == 0) refuse("malformed_record", "RELAY_PROXY port 0");
        if (plen < 16 || plen > PLAN_MAX_PREAMBLE || (uint32_t)plen + 4 >= len)
            refuse("malformed_record", "RELAY_PROXY preamble of %u bytes (16..%d, then a path)", plen, PLAN_MAX_PREAMBLE);
        p->has_proxy = 1;
        p->proxy_port = port;
        memcpy(p->proxy_preamble, v + 4, plen);
        p->proxy_preamble_len = plen;
        p->proxy_path = absolute(v + 4 + plen, len - 4 - plen, "RELAY_PROXY socket");
        if (strlen(p->proxy_path) >= 108) refuse("malformed_record", "RELAY_PROXY socket path longer than 107 bytes");
        break;
    }
    case 0x18:
        once(&seen[type], "LOOPBACK_INJECT");
        need(len, 0, "LOOPBACK_INJECT");
        p->inject = 1;
        break;
    case 0x20:
        p->cgroups = grow(p->cgroups, p->ncgroups + 1, sizeof *p->cgroups);
        p->cgroup_fds = grow(p->cgroup_fds, p->ncgroups + 1, sizeof *p->cgroup_fds);
        p->cgroups[p->ncgroups++] = absolute(v, len, "CGROUP_JOIN");
        break;
    case 0x30: {
        need(len, 20, "RLIMIT");
        struct rl r = {u32(v), u64(v + 4), u64(v + 12)};
        if (r.res >= 16) refuse("bad_rlimit", "unknown resource %u", r.res);
        if (r.soft > r.hard) refuse("bad_rlimit", "resource %u: soft above hard", r.res);
        for (size_t i = 0; i < p->nrl; i++)
            if (p->rlimits[i].res == r.res) refuse("duplicate_record", "RLIMIT %u given twice", r.res);
        p->rlimits = grow(p->rlimits, p->nrl + 1, sizeof *p->rlimits);
        p->rlimits[p->nrl++] = r;
        break;
    }
    case 0x40:
        once(&seen[type], "LANDLOCK_RULESET");
        need(len, 24, "LANDLOCK_RULESET");
        p->has_ruleset = 1;
        p->ll_fs = u64(v);
        p->ll_net = u64(v + 8);
        p->ll_scoped = u64(v + 16);
        break;
    case 0x41:
        if (len < 8) refuse("malformed_record", "LANDLOCK_PATH payload of %u bytes", len);
        p->paths = grow(p->paths, p->npaths + 1, sizeof *p->paths);
        p->paths[p->npaths].allowed = u64(v);
        p->paths[p->npaths].path = absolute(v + 8, len - 8, "LANDLOCK_PATH");
        p->paths[p->npaths].fd = -1;
        p->npaths++;
        break;
    case 0x42:
        need(len, 16, "LANDLOCK_PORT");
        p->ports = grow(p->ports, p->nports + 1, sizeof *p->ports);
        p->ports[p->nports].allowed = u64(v);
        p->ports[p->nports].port = u64(v + 8);
        if (p->ports[p->nports].port > 65535) refuse("malformed_record", "port %llu", (unsigned long long)u64(v + 8));
        p->nports++;
        break;
    case 0x50:
        once(&seen[type], "NO_NEW_PRIVS");
        need(len, 0, "NO_NEW_PRIVS");
        p->nnp = 1;
        break;
    case 0x51: {
        if (p->nfilters >= PLAN_MAX_SECCOMP) refuse("duplicate_record", "more than %d SECCOMP records", PLAN_MAX_SECCOMP);
        if (len < 12 || (len - 4) % 8 != 0 || (len - 4) / 8 > MAX_SECCOMP_INSNS)
            refuse("malformed_record", "SECCOMP payload of %u bytes is not flags + 1..%d instructions", len,
                   MAX_SECCOMP_INSNS);
        struct filter *f = &p->filters[p->nfilters++];
        f->flags = u32(v);
        f->len = (unsigned short)((len - 4) / 8);
        f->insns = calloc(f->len, sizeof *f->insns);
        if (!f->insns) refuse("internal", "out of memory");
        for (unsigned i = 0; i < f->len; i++) {
            const unsigned char *in = v + 4 + 8 * i;
            f->insns[i].code = (uint16_t)(in[0] | in[1] << 8);
            f->insns[i].jt = in[2];
            f->insns[i].jf = in[3];
            f->insns[i].k = u32(in + 4);
        }
        break;
    }
    case 0x52:
        once(&seen[type], "DROP_CAPS");
        need(len, 0, "DROP_CAPS");
        p->drop_caps = 1;
        break;
    case 0x53:
        once(&seen[type], "PROGRAM_PID");
        need(len, 4, "PROGRAM_PID");
        p->program_pid = u32(v);
        if (p->program_pid < 2 || p->program_pid > 4194303) refuse("malformed_record", "PROGRAM_PID %u", p->program_pid);
        break;
    case 0x54: {
        once(&seen[type], "CANARY");
        if (len < 16) refuse("malformed_record", "CANARY payload is %u bytes, at least 16 expected", len);
        struct canary *c = &p->canary;
        c->kinds = u32(v);
        c->port = u32(v + 4);
        c->syscall_nr = u32(v + 8);
        uint32_t rlen = u32(v + 12);
        if (rlen > len - 16) refuse("malformed_record", "CANARY read path of %u bytes, %u left", rlen, len - 16);
        if (c->kinds == 0 || (c->kinds & ~(uint32_t)CANARY_ALL)) refuse("malformed_record", "CANARY kinds 0x%x", c->kinds);
        if (c->kinds & CANARY_FS_READ) c->read_path = absolute(v + 16, rlen, "CANARY read path");
        if (c->kinds & CANARY_FS_WRITE) c->write_path = absolute(v + 16 + rlen, len - 16 - rlen, "CANARY write path");
        if ((c->kinds & CANARY_EGRESS) && (c->port == 0 || c->port > 65535))
            refuse("malformed_record", "CANARY port %u", c->port);
        if ((c->kinds & CANARY_SYSCALL) && c->syscall_nr >= 1024)
            refuse("malformed_record", "CANARY syscall %u", c->syscall_nr);
        break;
    }
    case 0x56:
        once(&seen[type], "CANARY_RLIMIT");
        need(len, 12, "CANARY_RLIMIT");
        p->canary.has_rl = 1;
        p->canary.rl_res = u32(v);
        p->canary.rl_hard = u64(v + 4);
        if (p->canary.rl_res >= 16) refuse("malformed_record", "CANARY_RLIMIT resource %u", p->canary.rl_res);
        break;
    case 0x55:
        once(&seen[type], "DECISIONS");
        need(len, 4, "DECISIONS");
        p->has_decisions = 1;
        p->decision_filter = u32(v);
        break;
    case 0x60: {
        need(len, 4, "KEEP_FD");
        uint32_t fd = u32(v);
        if (fd > 0x7fffffff) refuse("malformed_record", "KEEP_FD %u", fd);
        for (size_t i = 0; i < p->nkeep; i++)
            if (p->keep[i] == (int)fd) refuse("duplicate_record", "KEEP_FD %u given twice", fd);
        p->keep = grow(p->keep, p->nkeep + 1, sizeof *p->keep);
        p->keep[p->nkeep++] = (int)fd;
        break;
    }
    case 0x61: {
        once(&seen[type], "SIGNALS");
        need(len, 12, "SIGNALS");
        p->has_signals = 1;
        p->sig_target = u32(v);
        p->sig_mask = u64(v + 4);
        uint64_t forbidden = 1ULL | 1ULL << SIGKILL | 1ULL << SIGSTOP | 1ULL << SIGCHLD | ~0ULL << 32;
        if (p->sig_target > SIG_TARGET_ALL) refuse("bad_signal", "unknown target %u", p->sig_target);
        if (p->sig_mask & forbidden) refuse("bad_signal", "mask 0x%llx names a signal that cannot be forwarded",
                                            (unsigned long long)p->sig_mask);
        break;
    }
    default:
        refuse("unknown_record", "record type 0x%x", type);
    }
}

static void cross_check(struct plan *p) {
    if (!p->program) refuse("missing_record", "PROGRAM is required");
    if (p->argc == 0) refuse("missing_record", "at least one ARG (argv[0]) is required");
    if (p->has_usermap && !(p->ns & NS_USER)) refuse("inconsistent", "USER_MAP without a user namespace");
    if (p->mount_proc && (p->ns & (NS_PID | NS_MOUNT)) != (NS_PID | NS_MOUNT))
        refuse("inconsistent", "MOUNT_PROC needs pid and mount namespaces");
    if (p->nview && !(p->ns & NS_MOUNT)) refuse("inconsistent", "VIEW_OP without a mount namespace");
    if (p->program_pid && !(p->ns & NS_PID)) refuse("inconsistent", "PROGRAM_PID without a pid namespace");
    if (p->lo_up && !(p->ns & NS_NET)) refuse("inconsistent", "LOOPBACK_UP without a network namespace");
    if ((p->nrelay || p->nrelay_udp || p->has_proxy) && !p->lo_up)
        refuse("inconsistent", "RELAY_TCP_PORT, RELAY_UDP_PORT and RELAY_PROXY need LOOPBACK_UP in a network namespace");
    for (size_t i = 0; p->has_proxy && i < p->nrelay; i++)
        if (p->relay_ports[i] == p->proxy_port)
            refuse("inconsistent", "RELAY_PROXY port %u is also a RELAY_TCP_PORT", p->proxy_port);
    if (p->inject && (!p->nrelay || !p->nnp))
        refuse("inconsistent", "LOOPBACK_INJECT needs RELAY_TCP_PORT and NO_NEW_PRIVS");
    if ((p->npaths || p->nports) && !p->has_ruleset)
        refuse("inconsistent", "Landlock rules without LANDLOCK_RULESET");
    if (p->has_decisions && p->decision_filter >= p->nfilters)
        refuse("inconsistent", "DECISIONS names filter %u of %zu", p->decision_filter, p->nfilters);
    if (p->has_signals && p->sig_target == SIG_TARGET_ALL && !(p->ns & NS_PID))
        refuse("inconsistent", "forwarding to ALL needs a pid namespace");
    if (!(p->canary.kinds & CANARY_RESOURCE) != !p->canary.has_rl)
        refuse("inconsistent", "CANARY kind RESOURCE and CANARY_RLIMIT go together");
    /* NULL-terminate argv/envp for execve. */
    p->argv = grow(p->argv, p->argc + 1, sizeof *p->argv);
    p->argv[p->argc] = NULL;
    p->envp = grow(p->envp, p->envc + 1, sizeof *p->envp);
    p->envp[p->envc] = NULL;
}

void parse_plan(const unsigned char *body, uint32_t len, struct plan *p) {
    int seen[256] = {0};
    unsigned last = 0;
    uint32_t off = 0;
    memset(p, 0, sizeof *p);
    while (off < len) {
        if (len - off < 6) refuse("truncated", "record header at offset %u", off);
        unsigned type = (unsigned)(body[off] | body[off + 1] << 8);
        uint32_t rlen = u32(body + off + 2);
        off += 6;
        if (rlen > len - off) refuse("truncated", "record 0x%x declares %u bytes, %u left", type, rlen, len - off);
        if (type < last) refuse("record_order", "record 0x%x after 0x%x", type, last);
        last = type;
        record(p, type, body + off, rlen, seen);
        off += rlen;
    }
    cross_check(p);
}
