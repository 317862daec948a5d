/*
 * The host <-> guest wire protocol, version 4 (PROTOCOL.md). One byte stream (a virtio-serial port named
 * "ctl" in the guest; a unix socket or a helper's pipes on the host) carries frames:
 *
 *     u8 type | u32 length (big-endian) | length bytes of payload
 *
 * Host->guest and guest->host frames use separate type letters. The guest writes each frame with one
 * write() and never more than GUEST_MAX_PAYLOAD bytes of payload.
 */
#ifndef AASM_GUEST_PROTO_H
#define AASM_GUEST_PROTO_H

#include <stdint.h>

#define PROTOCOL_VERSION 4
#define PLAN_MAGIC "AAVP"
#define GUEST_MAX_PAYLOAD 65536u
#define HOST_MAX_PAYLOAD (8u << 20)

/* host -> guest */
#define F_PLAN 'P'      /* "AAVP" u16 version, then plan records (below) */
#define F_STDIN 'I'     /* bytes for the program's stdin */
#define F_STDIN_EOF 'i' /* the caller's stdin ended */
#define F_SIGNAL 'K'    /* u8 signal, u8 target (0 program, 1 its process group, 2 the whole tree) */
#define F_PING 'q'      /* any bytes: answered by F_PONG with the same bytes */
#define F_NET_IN 'd'    /* u32 stream, bytes from the mediation session for the program's connection */
#define F_NET_IN_EOF 'z' /* u32 stream: the session side ended (or could not be reached) */
#define F_NET_IN_ACK 'a' /* u32 stream, u32 count: bytes of F_NET_OUT the host delivered to the session */

/* guest -> host */
#define F_HELLO 'H'     /* key=value lines: protocol, kernel, landlock_abi, boot timings */
#define F_REFUSED 'R'   /* "token:detail": nothing was executed */
#define F_STARTED 'S'   /* key=value lines: setup timings, authority, descriptors */
#define F_EXEC_FAILED 'F' /* "errno" (decimal) */
#define F_STDOUT 'O'
#define F_STDERR 'E'
#define F_EXIT 'X'      /* "code:N" or "signal:N", then key=value lines */
#define F_PONG 'p'
#define F_NET_OPEN 'N'  /* u32 stream: the program connected to the proxy port (R_PROXY) */
#define F_NET_OUT 'D'   /* u32 stream, bytes the program sent */
#define F_NET_OUT_EOF 'Z' /* u32 stream: the program's side ended writing (or failed) */
#define F_NET_OUT_ACK 'A' /* u32 stream, u32 count: bytes of F_NET_IN the agent wrote to the program's socket */

/* Credit per stream and direction: a side never has more than NET_WINDOW bytes sent and not yet acknowledged. */
#define NET_WINDOW (256u << 10)
#define NET_MAX_STREAMS 64

/* plan records: u16 type | u32 length (big-endian) | payload; strings are raw bytes without NUL */
enum {
    R_PROGRAM = 0x01,  /* absolute path, exactly one */
    R_ARG = 0x02,      /* argv element, in order, >= 1 */
    R_ENV = 0x03,      /* NAME=value, >= 0 */
    R_CWD = 0x04,      /* absolute path in the view, exactly one */
    R_IDS = 0x05,      /* u32 uid, u32 gid */
    R_SEED = 0x10,     /* 32..256 bytes credited to the guest's entropy pool */
    R_CLOCK = 0x11,    /* u64 seconds, u32 nanoseconds since the epoch */
    R_SHARE = 0x20,    /* u8 slot, u8 flags (1 read-only), u8 transport (SHARE_*), tag: mount the share under the
                          staging folder (version 4: transport and tag) */
    R_BIND = 0x21,     /* u8 slot, u8 flags (1 read-only), u16 subpath length, subpath, target */
    R_TMPFS = 0x22,    /* target: a fresh private tmpfs */
    R_SYMLINK = 0x23,  /* u16 target length, target, content */
    R_DIR = 0x24,      /* path: folders created where missing */
    R_FILE = 0x25,     /* u16 target length, target, content: a generated read-only file bound at target */
    R_PROC = 0x26,     /* target: the guest's own procfs */
    R_SYSFS = 0x27,    /* target: the guest's own sysfs, read-only */
    R_RLIMIT = 0x30,   /* u32 resource, u64 soft, u64 hard */
    R_CGROUP = 0x31,   /* u8 knob (1 memory.max, 2 pids.max), u64 value */
    R_LANDLOCK = 0x40, /* u8 class (1 read, 2 write, 3 device), path in the view */
    R_SECCOMP = 0x50,  /* v4: a program by call name, compiled in the guest (filter.c, PROTOCOL.md "Seccomp by name") */
    R_FLAGS = 0x60,    /* u32: F_LANDLOCK (apply Landlock with the R_LANDLOCK rules) */
    R_CANARY = 0x70,   /* u32 CANARY_* mask, then the launch's nonce (8..64 bytes of [0-9a-f]) */
    R_CANARY_SYSCALL = 0x71, /* v4: candidate names (u8 length, name)... of calls an R_SECCOMP program denies */
    R_CANARY_RLIMIT = 0x72,  /* u32 resource, u64 the hard ceiling an R_RLIMIT claims (v3; with CANARY_RESOURCE) */
    R_CANARY_NAMES = 0x73,   /* u32 IPv4 address, u16 port of the name canary's datagram (v3; with CANARY_NAMES) */
    R_PROXY = 0x80,    /* u16 port: the agent listens on 127.0.0.1 and [::1] there and relays (F_NET_*) */
};

/* Canaries: one forbidden action per prevented domain, attempted by the program child inside its boundary
   right before execve (canary.c); any that succeeds refuses the launch as canary_escaped. */
#define CANARY_FS_READ 1u  /* list the view's root, which no read rule covers */
#define CANARY_FS_WRITE 2u /* create a file in the view's root, which no write rule covers */
#define CANARY_EGRESS 4u   /* TCP connect to the host side of a user-mode network (10.0.2.2) */
#define CANARY_PROCESS 8u  /* fork(): the guest's seccomp program answers EPERM when processes are denied outright */
#define CANARY_SYSCALL 16u /* the R_CANARY_SYSCALL call, every argument -1: only a filter answers EPERM (version 3) */
#define CANARY_NAMES 32u   /* a DNS datagram to R_CANARY_NAMES (198.18.0.53:53): no device, no route (version 3) */
#define CANARY_KEYRING 64u /* keyctl on the caller's user keyring: the baseline seccomp program (version 3) */
#define CANARY_RESOURCE 128u /* raise the R_CANARY_RLIMIT hard limit by one: no CAP_SYS_RESOURCE (version 3) */
#define CANARY_ALL 255u

#define PLAN_F_LANDLOCK 1u
#define SHARE_RO 1u
#define SHARE_9P 1u       /* virtio-9p (QEMU's -fsdev): the tag is the device's mount_tag */
#define SHARE_VIRTIOFS 2u /* virtiofs (vhost-user-fs under QEMU, VZVirtioFileSystemDevice under VZ) */
#define MAX_TAG 36        /* VZ allows 36 bytes in a virtiofs tag */
#define BIND_RO 1u

#define MAX_ARGS 4096
#define MAX_ENVS 4096
#define MAX_OPS 256
#define MAX_RULES 256
#define MAX_SECCOMP 4
#define MAX_RLIMITS 16
#define MAX_SLOTS 32

#endif
