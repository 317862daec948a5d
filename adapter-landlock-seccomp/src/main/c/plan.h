/* The launcher's plan, decoded from the wire message (PROTOCOL.md). Owned by plan.c. */
#ifndef AASM_PLAN_H
#define AASM_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>

#define PLAN_VERSION 1
#define PLAN_MAX_BODY (16u << 20)
#define PLAN_MAX_RELAY_PORTS 64

enum { NS_USER = 1, NS_PID = 2, NS_NET = 4, NS_IPC = 8, NS_MOUNT = 16, NS_ALL = 31 };
enum { BIND_READ_ONLY = 1 };
enum { SIG_TARGET_PROGRAM = 0, SIG_TARGET_GROUP = 1, SIG_TARGET_ALL = 2 };

struct bind { uint32_t flags; char *src, *tgt; };
struct rl { uint32_t res; uint64_t soft, hard; };
struct llpath { uint64_t allowed; char *path; int fd; };
struct llport { uint64_t allowed, port; };

struct plan {
    char *program;
    char **argv; size_t argc;
    char **envp; size_t envc;
    char *cwd;
    uint32_t ns;
    int has_usermap; uint32_t map[4]; /* inside uid, outside uid, inside gid, outside gid */
    int mount_proc;
    struct bind *binds; size_t nbinds;
    int lo_up;
    uint16_t *relay_ports; size_t nrelay;
    char **cgroups; int *cgroup_fds; size_t ncgroups;
    struct rl *rlimits; size_t nrl;
    int has_ruleset; uint64_t ll_fs, ll_net, ll_scoped;
    struct llpath *paths; size_t npaths;
    struct llport *ports; size_t nports;
    int nnp;
    int has_seccomp; uint32_t sc_flags; struct sock_filter *filter; unsigned short sc_len;
    int *keep; size_t nkeep;
    int has_signals; uint32_t sig_target; uint64_t sig_mask;
};

/* Decodes and validates the whole body into *p, or refuses (never returns on error). */
void parse_plan(const unsigned char *body, uint32_t len, struct plan *p);

/* Writes "refused:<token>:<detail>" to the report channel and exits 121. */
void refuse(const char *token, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

#endif
