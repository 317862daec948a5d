"""Throughput family TP (METHODOLOGY.md amendment 5; reported, not graded): launches per second of `/bin/true`
at concurrency 1, 8 and 32, for every launcher arm with the run's policy (the same read/write grants for
every arm). C clients each run launches back to back until the level's count is done; the rate is the count
over the wall time of the whole level. For the resident arm the kernel's CPU time (from /proc, before and
after the level) is divided by the launches: kernel CPU per launch. Failed launches are counted, never
dropped; a level with a failure reports its rate but says so."""
import math, os, statistics, subprocess, threading, time

from . import rules

LEVELS = {"full": (1, 8, 32), "quick": (1, 4)}
ROUNDS = {"full": 3, "quick": 1}
# a cold arm starts a JVM per launch (about a CPU second each here): fewer launches per level
COLD_ARMS = ("native-cli", "sandlock", "container-cli", "vm-cli")
# a guest per launch under TCG (about half a second of two shared cores each): the cold arms' smaller counts too
SLOW_ARMS = COLD_ARMS + ("vm-resident",)
NOT_RUN = {"negative-control": "the negative control is a P1 control (its injected sleep is not a launch cost)",
           "native-api": "the warm driver serves one request at a time; T1 measures it sequentially",
           "sandlock-api": "the warm driver serves one request at a time; T1 measures it sequentially",
           "container-api": "the warm driver serves one request at a time; T1 measures it sequentially"}


def launches_for(arm_id, concurrency, mode):
    if mode == "quick":
        return concurrency
    return max(concurrency, 8) if arm_id in SLOW_ARMS else max(4 * concurrency, 32)


def run_level(arm, argv, concurrency, count, log):
    """One level: returns {concurrency, launches, failed, wall_s, per_s, latencies_ms}."""
    lock = threading.Lock()
    left = [count]
    lat, failed = [], [0]
    env = dict(arm.env, **arm.workload_env.get("startup_nop", {}))

    def client():
        while True:
            with lock:
                if left[0] == 0:
                    return
                left[0] -= 1
            t0 = time.perf_counter_ns()
            with open(log, "ab") as err:
                rc = subprocess.run([arm.launcher] + argv, env=env, cwd=arm.cwd, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err).returncode
            ms = (time.perf_counter_ns() - t0) / 1e6
            with lock:
                lat.append(ms)
                if rc != 0:
                    failed[0] += 1

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    return {"concurrency": concurrency, "launches": count, "failed": failed[0], "wall_s": wall,
            "per_s": count / wall, "latencies_ms": lat}


def measure(present, argv, mode, log, kernel=None):
    """Every launcher arm at every level, ROUNDS times, arms rotated per (round, level). With the resident
    kernel, each resident level also carries kernel_cpu_ms (the CPU the kernel spent during it) and the
    kernel's memory right after it."""
    runs = {}
    arms = [a for a in present if hasattr(a, "launcher") and a.id not in NOT_RUN]
    levels = LEVELS[mode]
    for rnd in range(ROUNDS[mode]):
        for li, c in enumerate(levels):
            rot = (rnd * len(levels) + li) % max(len(arms), 1)
            for arm in arms[rot:] + arms[:rot]:
                before = kernel.cpu_ms() if kernel and arm.id == "resident" else None
                r = run_level(arm, argv, c, launches_for(arm.id, c, mode), log)
                if before is not None:
                    r["kernel_cpu_ms"] = kernel.cpu_ms() - before
                    r["kernel_memory"] = kernel.memory()
                runs.setdefault(arm.id, []).append(r)
        print("throughput round %d/%d (load %.2f)" % (rnd + 1, ROUNDS[mode], os.getloadavg()[0]), flush=True)
    return runs


def summarise(runs):
    """{arm: {concurrency: figures}}: median rate over the rounds, latency quantiles over all launches of the
    level, failures summed, kernel CPU per launch (resident arm) as total kernel CPU over total launches."""
    out = {}
    for arm_id, rs in runs.items():
        by = {}
        for r in rs:
            by.setdefault(r["concurrency"], []).append(r)
        levels = {}
        for c, group in sorted(by.items()):
            lat = sorted(x for r in group for x in r["latencies_ms"])
            n = sum(r["launches"] for r in group)
            fig = {"rounds": len(group), "launches": n, "failed": sum(r["failed"] for r in group),
                   "per_s_median": statistics.median(r["per_s"] for r in group),
                   "per_s_rounds": [round(r["per_s"], 2) for r in group],
                   "latency_p50_ms": rules.quartiles(lat)[1] if lat else None,
                   "latency_p95_ms": _p95(lat)}
            cpu = [r["kernel_cpu_ms"] for r in group if r.get("kernel_cpu_ms") is not None]
            if cpu:
                fig["kernel_cpu_ms_per_launch"] = sum(cpu) / sum(r["launches"] for r in group
                                                                 if r.get("kernel_cpu_ms") is not None)
                fig["kernel_rss_mib_after"] = max(r["kernel_memory"]["rss_mib"] for r in group)
                fig["kernel_hwm_mib"] = max(r["kernel_memory"]["hwm_mib"] for r in group)
            levels[c] = fig
        out[arm_id] = levels
    return out


def _p95(values):
    """Nearest-rank 95th percentile (None for no values)."""
    if not values:
        return None
    vals = sorted(values)
    return vals[max(0, math.ceil(0.95 * len(vals)) - 1)]
