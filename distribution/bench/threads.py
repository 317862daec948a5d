#!/usr/bin/env python3
"""The resident kernel JVM's CPU per launch, split by thread. A benchmark, not a test.

The kernel's JVM burns more CPU per launch than its request path's wall time, so threads other than the
connection's (the compiler, the collector, the VM thread, bundle pollers, the launchers' readers) count. This
reads /proc/<pid>/task/*/{stat,comm} before and after N launches and prints, per thread name (digits folded:
`C1 CompilerThre0` and `C1 CompilerThre1` are one row), the CPU (utime + stime) per launch; threads that ended
within the phase are one row too (their CPU is the process's total minus the living threads'). Each phase
follows a long warm-up, so the compiler's one-time work is out of it as far as a warm kernel leaves it.

Arms, policy and calls are stages.py's (imported): each arm is a resident kernel of its own; the sequential
phase alternates the arms call by call, the parallel phase runs C clients arm after arm, the order alternating.

usage: threads.py [--warmup N] [--warmup-clients C] [--sequential N] [--clients C --per-client K --rounds R] ARM...
  ARM is NAME=DIST_DIR[:JAVA_OPTS], as for stages.py
"""
import argparse
import os
import re
import tempfile
import threading
import time

import stages

TICK_MS = 1000.0 / stages.CLK_TCK


def tasks(pid):
    """{tid: (name, (utime ms, stime ms))} of every living thread, and the process's own total (its threads,
    living and ended; children excluded) as (utime ms, stime ms)."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                text = f.read()
        except OSError:
            continue  # ended between the listing and the read: counted in the "ended" row
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        out[int(tid)] = (name, (int(fields[11]) * TICK_MS, int(fields[12]) * TICK_MS))
    with open("/proc/%d/stat" % pid) as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    return out, (int(fields[11]) * TICK_MS, int(fields[12]) * TICK_MS)


def fold(name):
    """Thread names without their ordinal, so a pool is one row."""
    return re.sub(r"[#-]?\d+$", "", name).strip() or name


def split(before, after):
    """(user ms, system ms) by folded thread name between two tasks() snapshots, with the ended threads'
    remainder, and the process's (user, system) total."""
    (t0, total0), (t1, total1) = before, after
    rows = {}
    for tid, (name, (u, s)) in t1.items():
        u0, s0 = t0.get(tid, (name, (0.0, 0.0)))[1]
        r = rows.setdefault(fold(name), [0.0, 0.0])
        r[0] += u - u0
        r[1] += s - s0
    total = (total1[0] - total0[0], total1[1] - total0[1])
    ended = [total[0] - sum(r[0] for r in rows.values()), total[1] - sum(r[1] for r in rows.values())]
    if abs(ended[0]) + abs(ended[1]) >= TICK_MS:
        rows["(threads that ended in the phase)"] = ended
    return rows, total


def run_phase(arms, name, body, launches, results):
    """Runs body() and adds each arm's split, launches and load averages to results[name][arm]."""
    snaps = {arm.name: tasks(arm.pid) for arm in arms}
    load0 = open("/proc/loadavg").read().split()[:3]
    t0 = time.perf_counter()
    body()
    rate = launches * len(arms) / (time.perf_counter() - t0)
    time.sleep(1)  # the last connections finish their trace and request-log line after the status
    load1 = open("/proc/loadavg").read().split()[:3]
    for arm in arms:
        rows, total = split(snaps[arm.name], tasks(arm.pid))
        acc = results.setdefault(name, {}).setdefault(arm.name, ({}, [0.0, 0.0], [0], [], []))
        acc[4].append(rate)
        for k, (u, s) in rows.items():
            r = acc[0].setdefault(k, [0.0, 0.0])
            r[0] += u
            r[1] += s
        acc[1][0] += total[0]
        acc[1][1] += total[1]
        acc[2][0] += launches
        acc[3].append("/".join(load0) + " → " + "/".join(load1))


def parallel(arm, argv, cwd, clients, per):
    ts = [threading.Thread(target=lambda: [arm.call(argv, cwd) for _ in range(per)]) for _ in range(clients)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warmup", type=int, default=2000)
    ap.add_argument("--warmup-clients", type=int, default=8)
    ap.add_argument("--sequential", type=int, default=300)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--per-client", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--trace", action="store_true", help="keep stages.py's stage tracer on (off by default)")
    ap.add_argument("arms", nargs="+")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="aasm-threads-")
    scratch = os.path.join(work, "scratch")
    os.makedirs(scratch)
    read = ", ".join(p for p in ["/usr", "/etc", "/lib", "/lib64", "/bin", "/sbin"] if os.path.exists(p))
    policy = os.path.join(work, "policy.yaml")
    with open(policy, "w") as f:
        f.write(stages.POLICY % {"read": read, "scratch": scratch})
    argv = ["run", "exec", "--isolation", "process", "--isolation-backend", "aasm-native", "--policy", policy,
            "--", "/bin/true"]
    arms = [stages.Arm(s, work) for s in a.arms]
    if not a.trace:  # the product's default: no stage file, so the tracer's own work is not in the figures
        for arm in arms:
            arm.env["AASM_JAVA_OPTS"] = arm.env["AASM_JAVA_OPTS"].replace("-Daasm.stages.file=" + arm.stages, "")
    results = {}
    try:
        for arm in arms:
            arm.start()
        w = time.time()
        for arm in arms:
            parallel(arm, argv, scratch, a.warmup_clients, a.warmup // a.warmup_clients)
        print("warm-up: %d launches per arm from %d clients in %.0f s" % (a.warmup, a.warmup_clients, time.time() - w))

        def sequential():
            for i in range(a.sequential):
                for arm in arms[i % len(arms):] + arms[:i % len(arms)]:
                    arm.call(argv, scratch)
        run_phase(arms, "sequential", sequential, a.sequential, results)
        for r in range(a.rounds):
            for arm in (arms if r % 2 == 0 else list(reversed(arms))):
                run_phase([arm], "%d clients" % a.clients,
                          lambda arm=arm: parallel(arm, argv, scratch, a.clients, a.per_client),
                          a.clients * a.per_client, results)
    finally:
        for arm in arms:
            arm.aasm("daemon", "stop", check=False)
    report(results, arms)
    print("\nwork directory: %s" % work)


def report(results, arms):
    for phase, per_arm in results.items():
        print("\n### %s" % phase)
        for arm_name, (rows, total, n, loads, rates) in per_arm.items():
            user, system, n = total[0], total[1], n[0]
            all_ms = user + system
            print("\narm %s: %d launches, load average %s; JVM total %.2f ms per launch (%.2f user, %.2f system);"
                  " launches/s %s" % (arm_name, n, ", ".join(loads), all_ms / n, user / n, system / n,
                                      ", ".join("%.1f" % r for r in rates)))
            print("| thread | ms per launch (user + system) | user | system | share |")
            print("|---|---|---|---|---|")
            for name, (u, s) in sorted(rows.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
                if u + s > 0:
                    print("| %s | %.3f | %.3f | %.3f | %.1f %% |" % (name, (u + s) / n, u / n, s / n,
                                                                   100.0 * (u + s) / all_ms if all_ms else 0))


if __name__ == "__main__":
    main()
