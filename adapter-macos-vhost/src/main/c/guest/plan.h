/* The decoded plan of one launch (PROTOCOL.md, "Plan records"). Every pointer points into the plan frame. */
#ifndef AASM_GUEST_PLAN_H
#define AASM_GUEST_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

struct bytes {
    const char *p;
    size_t n;
};

struct view_op {
    int kind;          /* R_BIND, R_TMPFS, R_SYMLINK, R_DIR, R_FILE, R_PROC, R_SYSFS */
    int slot, flags;   /* R_BIND */
    char *target;      /* NUL-terminated copy */
    char *source;      /* R_BIND subpath, R_SYMLINK content (NUL-terminated copies) */
    struct bytes data; /* R_FILE content */
};

struct rule {
    int cls;
    char *path;
};

struct rlim {
    uint32_t resource;
    uint64_t soft, hard;
};

struct plan {
    char *program, *cwd;
    char *argv[MAX_ARGS + 1];
    int argc;
    char *envp[MAX_ENVS + 1];
    int envc;
    int have_ids;
    uint32_t uid, gid;
    struct bytes seed;
    int have_clock;
    uint64_t clock_sec;
    uint32_t clock_nsec;
    int share_slot[MAX_SLOTS], share_ro[MAX_SLOTS], nshares;
    int share_transport[MAX_SLOTS];   /* as sent: checked against SHARE_* after decoding */
    char share_tag[MAX_SLOTS][MAX_TAG + 1];
    struct view_op ops[MAX_OPS];
    int nops;
    struct rlim rlimits[MAX_RLIMITS];
    int nrlimits;
    int64_t memory_max, pids_max; /* -1: none */
    struct rule rules[MAX_RULES];
    int nrules;
    struct bytes seccomp[MAX_SECCOMP]; /* by-name descriptions (filter.c) */
    int nseccomp;
    struct bytes bpf[MAX_SECCOMP];     /* the same programs compiled in the guest (filter_compile) */
    int seccomp_skipped;               /* optional rules naming calls this architecture does not have */
    long seccomp_us;                   /* how long compiling them took in the guest */
    uint32_t flags;
    uint32_t canaries;   /* CANARY_* mask, 0: none */
    char canary_nonce[65];
    int have_canary_syscall;
    struct bytes canary_calls;    /* R_CANARY_SYSCALL: candidate names (u8 length, name)... */
    uint32_t canary_syscall;      /* the first candidate this architecture has, resolved by filter_compile */
    char canary_syscall_name[64];
    int have_canary_rlimit;
    uint32_t canary_rl_resource;  /* R_CANARY_RLIMIT */
    uint64_t canary_rl_hard;
    int have_canary_names;
    uint32_t canary_ns_addr;      /* R_CANARY_NAMES, host byte order */
    uint16_t canary_ns_port;
    int proxy_port;      /* R_PROXY: 1..65535, 0: none */
};

/* Decodes a plan frame's payload; 0 on success, else -1 with a "token:detail" reason in err. */
int plan_decode(const unsigned char *payload, size_t len, struct plan *out, char *err, size_t errcap);

#endif
