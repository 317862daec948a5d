/* The launcher's plan, decoded from the wire message (PROTOCOL.md). Owned by plan.c. */
#ifndef AASM_PLAN_H
#define AASM_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>

#define PLAN_VERSION 3
#define PLAN_MAX_BODY (16u << 20)
#define PLAN_MAX_RELAY_PORTS 64
#define PLAN_MAX_SECCOMP 4
#define PLAN_MAX_PREAMBLE 64

enum { NS_USER = 1, NS_PID = 2, NS_NET = 4, NS_IPC = 8, NS_MOUNT = 16, NS_ALL = 31 };
enum { SIG_TARGET_PROGRAM = 0, SIG_TARGET_GROUP = 1, SIG_TARGET_ALL = 2 };

/* VIEW_OP kinds and flags (PROTOCOL.md "Filesystem view"). */
enum { VOP_ROOT = 1, VOP_BIND = 2, VOP_TMPFS = 3, VOP_DEVPTS = 4, VOP_SYMLINK = 5, VOP_DIR = 6 };
enum { VIEW_BASE_EMPTY = 0, VIEW_BASE_HOST_RW = 1, VIEW_BASE_HOST_RO = 2 };
enum { VF_READ_ONLY = 1, VF_NO_DEV = 2, VF_NO_EXEC = 4, VF_ALL = 7 };

struct viewop { uint32_t op, flags; char *a, *b; int fd; };
struct rl { uint32_t res; uint64_t soft, hard; };
struct llpath { uint64_t allowed; char *path; int fd; };
struct llport { uint64_t allowed, port; };
struct filter { uint32_t flags; struct sock_filter *insns; unsigned short len; };

/* CANARY kinds (PROTOCOL.md "Canaries"): one forbidden action per domain the plan prevents. */
enum { CANARY_FS_READ = 1, CANARY_FS_WRITE = 2, CANARY_EGRESS = 4, CANARY_SYSCALL = 8, CANARY_PROCESS = 16,
       CANARY_SIGNAL = 32, CANARY_RESOURCE = 64, CANARY_NAMES = 128,
       CANARY_KEYRING = 256, CANARY_ALL = 511 };
/* rl_res/rl_hard: for RESOURCE, the ceiling the plan claims (CANARY_RLIMIT), not the one RLIMIT sets. */
struct canary { uint32_t kinds, port, syscall_nr; char *read_path, *write_path; int has_rl; uint32_t rl_res; uint64_t rl_hard; };

struct plan {
    char *program;
    char **argv; size_t argc;
    char **envp; size_t envc;
    char *cwd;
    int terminal;
    uint32_t ns;
    int has_usermap; uint32_t map[4]; /* inside uid, outside uid, inside gid, outside gid */
    int mount_proc;
    struct viewop *view; size_t nview;
    int lo_up;
    uint16_t *relay_ports; size_t nrelay;
    uint16_t *relay_udp_ports; size_t nrelay_udp;
    /* LOOPBACK_INJECT: granted TCP ports are reached by connect() answered with an injected host socket */
    int inject;
    /* RELAY_PROXY: the in-namespace port of the supervisor's proxy, its socket, the preamble every connection starts with */
    int has_proxy; uint16_t proxy_port; char *proxy_path;
    unsigned char proxy_preamble[PLAN_MAX_PREAMBLE]; size_t proxy_preamble_len;
    char **cgroups; int *cgroup_fds; size_t ncgroups;
    struct rl *rlimits; size_t nrl;
    int has_ruleset; uint64_t ll_fs, ll_net, ll_scoped;
    struct llpath *paths; size_t npaths;
    struct llport *ports; size_t nports;
    int nnp;
    struct filter filters[PLAN_MAX_SECCOMP]; size_t nfilters;
    int drop_caps;
    uint32_t program_pid;
    struct canary canary;
    int has_decisions; uint32_t decision_filter;
    int *keep; size_t nkeep;
    int has_signals; uint32_t sig_target; uint64_t sig_mask;
};

/* Decodes and validates the whole body into *p, or refuses (never returns on error). */
void parse_plan(const unsigned char *body, uint32_t len, struct plan *p);

/* Writes "refused:<token>:<detail>" to the report channel and exits 121. */
void refuse(const char *token, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

#endif
