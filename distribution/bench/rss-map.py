#!/usr/bin/env python3
"""Where a JVM's resident set is: /proc/PID/smaps by mapping, each mapping put in one row of a table.

A measurement, not a test (docs/resident.md, "Memory of the resident kernel"). Anonymous mappings are named by
Native Memory Tracking's virtual memory map when NMT_DETAIL names a file holding the output of
`jcmd PID VM.native_memory detail` (the kernel must then run with -XX:NativeMemoryTracking=detail and attach
allowed: AASM_JAVA_OPTS="-XX:NativeMemoryTracking=detail -XX:-DisableAttachMechanism"); without it, anonymous
memory is one row. Anonymous memory that NMT reserved for nothing is the C library's malloc heap (arenas), plus
whatever a native library mapped itself.

Per row: Rss, Pss, Private (clean + dirty), Shared (clean + dirty), and of the shared part how much is clean and
file-backed (pages the kernel can drop and read again, and that other processes mapping the same file share).

usage: rss-map.py PID [NMT_DETAIL]
"""
import re
import sys

KEYS = ("Rss", "Pss", "Shared_Clean", "Shared_Dirty", "Private_Clean", "Private_Dirty")


def smaps(pid):
    """[(start, end, name, {key: KiB})] of /proc/PID/smaps."""
    out = []
    cur = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            m = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$", line)
            if m:
                cur = [int(m.group(1), 16), int(m.group(2), 16), m.group(4).strip(), {}, m.group(3)]
                out.append(cur)
                continue
            k, _, v = line.partition(":")
            if cur is not None and k in KEYS:
                cur[3][k] = int(v.split()[0])
    return out


def nmt_regions(path):
    """[(start, end, category)] of the reserved regions in NMT detail's virtual memory map."""
    regions = []
    with open(path) as f:
        for line in f:
            m = re.match(r"^\[(0x[0-9a-f]+) - (0x[0-9a-f]+)\] reserved \d+KB for (.+?)(?: from)?$", line.strip())
            if m:
                regions.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3)))
    return regions


def category(start, name, regions):
    if name.endswith(".jsa") or "classes.jsa" in name:
        return "CDS archive (file " + name.rsplit("/", 1)[-1][:24] + ")"
    if name.endswith("libjvm.so"):
        return "libjvm.so"
    if name.endswith(".jar"):
        return "jar files"
    if "libjnidispatch" in name or "jna" in name.lower():
        return "JNA native library"
    if "seccomp" in name:
        return "libseccomp"
    if name.startswith("/") and (".so" in name):
        return "other shared libraries"
    if name.startswith("/"):
        return "other files (" + name.rsplit("/", 1)[-1][:20] + ")"
    if name == "[stack]":
        return "main thread stack"
    if name in ("[heap]",):
        return "malloc: brk heap (main arena)"
    if name.startswith("["):
        return "kernel-provided " + name
    for s, e, cat in regions:
        if s <= start < e:
            if cat == "Shared class space":
                return "CDS archive (mapped, NMT: shared class space)"
            return "NMT: " + cat
    return "anonymous, not NMT's (malloc arenas, native libraries)" if regions else "anonymous"


def main():
    pid = sys.argv[1]
    regions = nmt_regions(sys.argv[2]) if len(sys.argv) > 2 else []
    rows = {}
    for start, end, name, kv, perms in smaps(pid):
        cat = category(start, name, regions)
        r = rows.setdefault(cat, {k: 0 for k in KEYS} | {"file_shared_clean": 0, "n": 0})
        for k in KEYS:
            r[k] += kv.get(k, 0)
        if name.startswith("/"):
            r["file_shared_clean"] += kv.get("Shared_Clean", 0) + kv.get("Private_Clean", 0)
        r["n"] += 1
    total = {k: sum(r[k] for r in rows.values()) for k in KEYS + ("file_shared_clean",)}
    mib = lambda kib: f"{kib / 1024:.1f}"
    print("| where | mappings | Rss MiB | Pss MiB | Private MiB | Shared MiB | file-backed clean MiB |")
    print("|---|---|---|---|---|---|---|")
    for cat, r in sorted(rows.items(), key=lambda kv: -kv[1]["Rss"]):
        if r["Rss"] == 0:
            continue
        print(f"| {cat} | {r['n']} | {mib(r['Rss'])} | {mib(r['Pss'])} | "
              f"{mib(r['Private_Clean'] + r['Private_Dirty'])} | {mib(r['Shared_Clean'] + r['Shared_Dirty'])} | "
              f"{mib(r['file_shared_clean'])} |")
    print(f"| **total** | | **{mib(total['Rss'])}** | {mib(total['Pss'])} | "
          f"{mib(total['Private_Clean'] + total['Private_Dirty'])} | "
          f"{mib(total['Shared_Clean'] + total['Shared_Dirty'])} | {mib(total['file_shared_clean'])} |")


if __name__ == "__main__":
    main()
