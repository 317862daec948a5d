#!/usr/bin/env python3
"""What `bin/aasm` (a POSIX sh script that execs the static aasm-client) adds to a resident launch, against
calling aasm-client directly. A benchmark, not a test.

One resident kernel (stages.py's Arm and policy); per round, in an order that rotates: `/bin/true` alone,
`sh -c 'exec /bin/true'` (the shell's own start and exec), `bin/aasm run exec ...` and `aasm-client run exec ...`
(the same confined launch). Prints medians, the paired differences, and the CPU of each arm's client-side
processes (getrusage of the children: the shell and the client, not the kernel).

usage: client-share.py [--runs N] [--warmup N] DIST_DIR
"""
import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time

import stages


def timed(argv, env, cwd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter_ns()
    p = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = (time.perf_counter_ns() - t0) / 1e6
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit("%s failed (%d): %s" % (argv[0], p.returncode, p.stderr))
    if "run" in argv and "posture=READY" not in p.stderr:
        raise SystemExit("%s: the launch was not READY: %s" % (argv[0], p.stderr))
    return wall, (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("dist")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="aasm-client-share-")
    scratch = os.path.join(work, "scratch")
    os.makedirs(scratch)
    read = ", ".join(p for p in ["/usr", "/etc", "/lib", "/lib64", "/bin", "/sbin"] if os.path.exists(p))
    policy = os.path.join(work, "policy.yaml")
    with open(policy, "w") as f:
        f.write(stages.POLICY % {"read": read, "scratch": scratch})
    run = ["run", "exec", "--isolation", "process", "--isolation-backend", "aasm-native", "--policy", policy,
           "--", "/bin/true"]
    arm = stages.Arm("kernel=" + a.dist, work)
    dist = arm.dist
    arms = {"/bin/true": ["/bin/true"], "sh -c 'exec /bin/true'": ["/bin/sh", "-c", "exec /bin/true"],
            "bin/aasm": [os.path.join(dist, "bin", "aasm")] + run,
            "aasm-client": [os.path.join(dist, "bin", "aasm-client")] + run}
    walls = {k: [] for k in arms}
    cpus = {k: [] for k in arms}
    names = list(arms)
    try:
        arm.start()
        for _ in range(a.warmup):
            for k in names:
                timed(arms[k], arm.env, scratch)
        load0 = open("/proc/loadavg").read().split()[:3]
        for i in range(a.runs):
            for k in names[i % len(names):] + names[:i % len(names)]:
                w, c = timed(arms[k], arm.env, scratch)
                walls[k].append(w)
                cpus[k].append(c)
        load1 = open("/proc/loadavg").read().split()[:3]
    finally:
        arm.aasm("daemon", "stop", check=False)
    print("%d rounds (after %d warm-up), load average %s at the start, %s at the end"
          % (a.runs, a.warmup, "/".join(load0), "/".join(load1)))
    print("| arm | wall median ms | p95 ms | client-side CPU mean ms |")
    print("|---|---|---|---|")
    for k in names:
        print("| %s | %.2f | %.2f | %.3f |" % (k, statistics.median(walls[k]), stages.pct(walls[k], 95),
                                               statistics.mean(cpus[k])))
    for x, y in (("bin/aasm", "aasm-client"), ("sh -c 'exec /bin/true'", "/bin/true")):
        d = [p - q for p, q in zip(walls[x], walls[y])]
        print("paired, %s minus %s: median %+.2f ms (p5 %+.2f, p95 %+.2f); %s slower in %d of %d rounds"
              % (x, y, statistics.median(d), stages.pct(d, 5), stages.pct(d, 95), x, sum(1 for v in d if v > 0),
                 len(d)))


if __name__ == "__main__":
    main()
