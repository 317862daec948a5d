"""Cold-start family CS (METHODOLOGY.md amendment 5; reported, not graded): what one `aasm run exec` costs
with no resident kernel (`AASM_CLIENT=off`: a JVM and the framework per call), as wall and CPU time of the
native-cli arm's P1 samples (same samples, no extra launches), and where it goes: a few more cold runs with
`-Daasm.timing=true`, whose per-phase lines (the boot jar's own marks) are kept as medians."""
import os, re, statistics, subprocess

from . import rules

_LINE = re.compile(r"aasm: timing: (.+?)\s+(\d+) ms\s*$")
TIMED_RUNS = {"full": 5, "quick": 1}


def parse_timing(stderr_text):
    """[(phase, ms)] in the order printed; bundle lines keep their leading 'start <name>'."""
    out = []
    for line in stderr_text.splitlines():
        m = _LINE.search(line)
        if m:
            out.append((m.group(1).strip(), int(m.group(2))))
    return out


def from_samples(samples):
    """Wall and CPU (user + system of the whole tree) medians of the native-cli P1 samples, or None."""
    ok = [s for s in samples if s.get("rc") == 0 and s.get("wall_ms") is not None]
    if not ok:
        return None
    cpu = [1000.0 * (s.get("utime_s", 0) + s.get("stime_s", 0)) for s in ok if "utime_s" in s]
    d = rules.describe([s["wall_ms"] for s in ok])
    return {"n": len(ok), "wall_ms_median": d["median"], "wall_ms_q1": d["q1"], "wall_ms_q3": d["q3"],
            "cpu_ms_median": statistics.median(cpu) if cpu else None}


def phases(arm, argv, mode):
    """Median ms per phase over TIMED_RUNS cold runs of the arm with -Daasm.timing=true."""
    runs = []
    env = dict(arm.env, AASM_JAVA_OPTS=(arm.env.get("AASM_JAVA_OPTS", "") + " -Daasm.timing=true").strip())
    for _ in range(TIMED_RUNS[mode]):
        p = subprocess.run([arm.launcher] + argv, env=env, cwd=arm.cwd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
        if p.returncode == 0:
            runs.append(parse_timing(p.stderr.decode(errors="replace")))
    return merge(runs)


def merge(runs):
    """[{phase, ms_median, runs}] in first-seen order; a phase seen in only some runs says in how many."""
    order, values = [], {}
    for r in runs:
        for phase, ms in r:
            if phase not in values:
                order.append(phase)
                values[phase] = []
            values[phase].append(ms)
    return [{"phase": p, "ms_median": statistics.median(values[p]), "runs": len(values[p])} for p in order]


def report(samples_by_arm, present, argv, mode, goal_ms=400.0):
    arm = next((a for a in present if a.id == "native-cli"), None)
    if arm is None:
        return {"measured": False, "reason": "native-cli arm absent"}
    figures = from_samples(samples_by_arm.get("native-cli", {}).get("startup_nop", []))
    if figures is None:
        return {"measured": False, "reason": "native-cli has no successful P1 sample"}
    base = from_samples(samples_by_arm.get("unconfined", {}).get("startup_nop", []))
    return dict(figures, measured=True, goal_ms=goal_ms, phases=phases(arm, argv, mode),
                unconfined_wall_ms_median=base["wall_ms_median"] if base else None,
                command="AASM_CLIENT=off aasm run exec --isolation process --isolation-backend aasm-native "
                        "--policy <bench policy> -- /bin/true")
