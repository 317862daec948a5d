#!/usr/bin/env python3
"""Steady-state cost by layer (docs/benchmarks.md, "Steady-state cost inside a launch"): show an aasm-launch plan
message (AALP, PROTOCOL.md), rewrite it with one layer removed or with truncate added to read-only grants, and emulate
the kernel's seccomp action cache on its programs.

  layers.py show PLAN
  layers.py cache PLAN
  layers.py rewrite PLAN OUT [seccomp,landlock,view,cgroup,canary,rotrunc=/usr:/etc] [PROGRAM ARG...]

A plan is captured from a real launch with strace (the launcher's first read on its channel starts with "AALP");
a rewritten one is replayed by the launcher alone: aasm-launch fd:3,4 3<OUT 4>status. Per-launch cgroup paths in
a captured plan must be replaced by existing groups first (they are removed when the launch ends)."""
import struct, sys

NAMES = {0x01:"PROGRAM",0x02:"ARG",0x03:"ENV",0x04:"CWD",0x05:"TERMINAL",0x10:"NAMESPACES",0x11:"USER_MAP",0x12:"MOUNT_PROC",
 0x13:"VIEW_OP",0x14:"LOOPBACK_UP",0x15:"RELAY_TCP_PORT",0x16:"RELAY_UDP_PORT",0x17:"RELAY_PROXY",0x18:"LOOPBACK_INJECT",
 0x20:"CGROUP_JOIN",0x30:"RLIMIT",0x40:"LANDLOCK_RULESET",0x41:"LANDLOCK_PATH",0x42:"LANDLOCK_PORT",0x50:"NO_NEW_PRIVS",
 0x51:"SECCOMP",0x52:"DROP_CAPS",0x53:"PROGRAM_PID",0x54:"CANARY",0x55:"DECISIONS",0x56:"CANARY_RLIMIT",0x60:"KEEP_FD",0x61:"SIGNALS"}

def load(path):
    b = open(path,"rb").read()
    assert b[:4]==b"AALP", b[:4]
    ver, flags, ln = struct.unpack("<HHI", b[4:12])
    body = b[12:12+ln]; recs=[]; off=0
    while off < len(body):
        t, l = struct.unpack("<HI", body[off:off+6]); recs.append([t, body[off+6:off+6+l]]); off += 6+l
    return ver, recs

def dump(ver, recs):
    body = b"".join(struct.pack("<HI", t, len(v))+v for t,v in recs)
    return b"AALP"+struct.pack("<HHI", ver, 0, len(body))+body

def insns(v):
    return [struct.unpack("<HBBI", v[4+8*i:12+8*i]) for i in range((len(v)-4)//8)]

# kernel/seccomp.c seccomp_is_const_allow(), x86_64 native arch
AUDIT_X86_64 = 0xC000003E
def const_allow(prog, nr):
    pc = 0; A = 0
    while pc < len(prog):
        code, jt, jf, k = prog[pc]
        if code == 0x20:  # BPF_LD|W|ABS
            if k == 0: A = nr
            elif k == 4: A = AUDIT_X86_64
            else: return None  # reads args / ip: not constant
            pc += 1
        elif code == 0x05: pc += 1 + k  # JA
        elif code in (0x15, 0x35, 0x25, 0x45):
            op = {0x15: A == k, 0x35: A >= k, 0x25: A > k, 0x45: (A & k) != 0}[code]
            pc += 1 + (jt if op else jf)
        elif code == 0x54: A &= k; pc += 1  # ALU AND K
        elif code == 0x06: return k == 0x7fff0000
        else: return None
    return None

def main():
    cmd = sys.argv[1]
    ver, recs = load(sys.argv[2])
    if cmd == "show":
        for t, v in recs:
            s = NAMES.get(t, hex(t))
            if t in (1,2,3,4,0x20): d = v.decode(errors="replace")[:100]
            elif t == 0x41: d = "0x%x %s" % (struct.unpack("<Q", v[:8])[0], v[8:].decode())
            elif t == 0x51: d = "flags=0x%x insns=%d" % (struct.unpack("<I", v[:4])[0], (len(v)-4)//8)
            elif t == 0x13: d = "op=%d flags=0x%x %r" % (struct.unpack("<II", v[:8]) + (v[12:].decode(errors="replace"),))
            else: d = v.hex()[:80]
            print(s, len(v), d)
    elif cmd == "cache":
        hot = {0:"read",1:"write",3:"close",4:"stat",5:"fstat",8:"lseek",9:"mmap",17:"pread64",16:"ioctl",
               217:"getdents64",257:"openat",262:"newfstatat",110:"getppid",44:"sendto",56:"clone",202:"futex",
               13:"rt_sigaction",14:"rt_sigprocmask",72:"fcntl",89:"readlink",21:"access",318:"getrandom",
               228:"clock_gettime",332:"statx",79:"getcwd",439:"faccessat2",61:"wait4",59:"execve"}
        filters = [insns(v) for t, v in recs if t == 0x51]
        for i, f in enumerate(filters):
            notcached = [n for n in range(0, 460) if const_allow(f, n) is not True]
            print("filter %d: %d insns; not cached: %d numbers; hot not cached: %s" % (i, len(f), len(notcached),
                  [hot[n] for n in notcached if n in hot]))
    elif cmd == "rewrite":
        out = sys.argv[3]; drops = set(sys.argv[4].split(",")) if len(sys.argv) > 4 and sys.argv[4] else set()
        rotrunc = set(next((d[len("rotrunc="):].split(":") for d in drops if d.startswith("rotrunc=")), []))
        prog = sys.argv[5:]  # program argv
        canary_clear = 0; new = []
        for t, v in recs:
            if "seccomp" in drops and t in (0x51, 0x55, 0x18): canary_clear |= 8|256; continue
            if "landlock" in drops and t in (0x40, 0x41, 0x42): canary_clear |= 1|2|4; continue
            if "view" in drops and t == 0x13: continue
            if "cgroup" in drops and t == 0x20: continue
            if "canary" in drops and t in (0x54, 0x56): continue
            if t == 0x41 and v[8:].decode() in rotrunc:
                new.append([t, struct.pack("<Q", struct.unpack("<Q", v[:8])[0] | 0x4000) + v[8:]]); continue
            if prog and t == 0x01: new.append([t, prog[0].encode()]); continue
            if prog and t == 0x02: continue
            new.append([t, v])
        if prog:
            i = max(j for j, r in enumerate(new) if r[0] == 0x01)
            for a in reversed(prog): new.insert(i + 1, [0x02, a.encode()])
        for r in new:
            if r[0] == 0x54 and canary_clear:
                kinds = struct.unpack("<I", r[1][:4])[0] & ~canary_clear
                r[1] = struct.pack("<I", kinds) + r[1][4:]
        new = [r for r in new if not (r[0] == 0x54 and struct.unpack("<I", r[1][:4])[0] == 0)]
        if not any(r[0] == 0x54 for r in new): new = [r for r in new if r[0] != 0x56]
        open(out, "wb").write(dump(ver, new))
if __name__ == "__main__": main()
