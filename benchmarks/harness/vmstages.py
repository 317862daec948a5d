"""The VM launch through the resident kernel, stage by stage (issue 15; reported, not graded).

The vm-resident arm's kernel runs with -Daasm.stages.file (ports' LaunchStages): every launch it serves appends
one line of marks, microseconds from the accept of the client's connection. The VM backend marks its own stages
(vm_prepare ... vm_teardown, docs/vm.md). After the families, RUNS pairs of `/bin/true` alternate between the
unconfined arm and vm-resident (which of the two goes first alternates too); the time the VM adds is the
per-pair difference, next to issue 15's goal (<= 0.5 s under TCG through a template) and the load average."""
import json, os, statistics, time

from . import rules

RUNS = {"full": 10, "quick": 2}
GOAL_MS = 500.0
# what each mark ends, in time order (the kernel's and the command layer's marks are in docs/benchmarks.md)
VM_STAGES = {
    "vm_prepare": "from the kernel's `prepare` mark to the VM backend's start",
    "vm_spawn": "a run folder, the command line, QEMU forked and exec'd under setpriv",
    "vm_connect": "QEMU's start up to its two sockets and the QMP handshake (answered once its machine is built)",
    # vm_migrate is marked only on the earlier restore path (-Daasm.vm.restoreDeferred=true)
    "vm_migrate": "earlier path: migrate-incoming, query-migrate polled until the state is loaded",
    "vm_resume": "the template's device state loaded (its RAM is the template file, copy-on-write); the guest runs",
    "vm_plan": "the plan encoded (entropy seed, clock, canary plan)",
    "vm_started": "the agent reads the plan, installs the boundary, tries the canaries, execve; its answer",
    "vm_exit": "the program runs and the agent's exit frame arrives",
    "vm_teardown": "QEMU killed and reaped, its run folder removed",
}


def durations(line):
    """{stage: ms} of one trace line: each mark's time minus the previous mark's (origin: the accept)."""
    marks = sorted(json.loads(line).items(), key=lambda kv: kv[1])
    out, prev = {}, 0
    for stage, us in marks:
        out[stage] = (us - prev) / 1000.0
        prev = us
    out["_total"] = prev / 1000.0
    return out


def read_traces(path):
    """The VM launch traces: the lines with a vm_started mark."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        lines = f.read().splitlines()
    return [l for l in lines if '"vm_started"' in l]


def _count(path):
    return len(read_traces(path))


def _wait_lines(path, n, timeout_s=10.0):
    """A trace is written when its connection ends, a moment after the client exits: wait for it."""
    deadline = time.time() + timeout_s
    while _count(path) < n and time.time() < deadline:
        time.sleep(0.05)
    return _count(path) >= n


def measure(arm, base, argv, mode, stages_file):
    """Paired /bin/true runs; returns the figures for results.json."""
    n = RUNS[mode]
    before = _count(stages_file)
    pairs, loads, failed = [], [], 0
    for i in range(n):
        order = (base, arm) if i % 2 == 0 else (arm, base)
        got = {}
        for a in order:
            got[a.id] = a.sample("startup_nop", argv)
        loads.append(os.getloadavg()[0])
        v, u = got[arm.id], got[base.id]
        if v["rc"] != 0 or u["rc"] != 0:
            failed += 1
            continue
        pairs.append((v["wall_ms"], u["wall_ms"]))
    _wait_lines(stages_file, before + len(pairs) + failed)
    traces = [durations(l) for l in read_traces(stages_file)[before:]]
    return summarise(pairs, traces, loads, failed, n)


def summarise(pairs, traces, loads, failed, n):
    if not pairs:
        return {"measured": False, "reason": "no successful pair (%d failed)" % failed}
    added = [v - u for v, u in pairs]
    stages = []
    seen = []
    for t in traces:  # durations() keeps each trace's stages in time order
        seen += [s for s in t if s not in seen and s != "_total"]
    for s in seen:
        vals = [t[s] for t in traces if s in t]
        d = rules.describe(vals)
        stages.append({"stage": s, "ms_median": d["median"], "ms_q1": d["q1"], "ms_q3": d["q3"], "runs": len(vals),
                       "what": VM_STAGES.get(s)})
    totals = [t["_total"] for t in traces]
    vm_ms = [v for v, _ in pairs]
    return {"measured": True, "pairs": len(pairs), "failed": failed, "runs": n, "goal_ms": GOAL_MS,
            "added_ms_median": statistics.median(added), "added_ms_q1": rules.describe(added)["q1"],
            "added_ms_q3": rules.describe(added)["q3"], "added_ms": [round(x, 1) for x in added],
            "vm_resident_ms_median": statistics.median(vm_ms),
            "unconfined_ms_median": statistics.median(u for _, u in pairs),
            "kernel_ms_median": statistics.median(totals) if totals else None,
            "client_ms_median": statistics.median(vm_ms) - statistics.median(totals) if totals else None,
            "load": [round(min(loads), 2), round(max(loads), 2)], "stages": stages, "traces": len(traces)}


def section(vs):
    """summary.md lines."""
    L = ["", "## The VM launch through the resident kernel (vm-resident arm, issue 15; reported, not graded)", ""]
    if not vs or not vs.get("measured"):
        return L + ["Not measured: %s." % ((vs or {}).get("reason") or "the vm-resident arm is absent")]
    L += ["%d pairs of `/bin/true`, unconfined and vm-resident alternating (load average %.2f-%.2f): vm-resident "
          "median **%.0f ms**, unconfined %.1f ms, **added %.0f ms** (IQR %.0f-%.0f) per pair. Issue 15's goal: "
          "<= %.0f ms added under TCG through a template (%s at this load). The template was made before timing."
          % (vs["pairs"], vs["load"][0], vs["load"][1], vs["vm_resident_ms_median"], vs["unconfined_ms_median"],
             vs["added_ms_median"], vs["added_ms_q1"], vs["added_ms_q3"], vs["goal_ms"],
             "met" if vs["added_ms_median"] <= vs["goal_ms"] else "NOT met"), "",
          "Stage by stage (the kernel's `-Daasm.stages.file` traces, %d launches; each stage from the previous mark "
          "to its own; the client's share is the wall time minus the kernel's trace, median %.0f ms):" % (
              vs["traces"], vs["client_ms_median"] or 0), "",
          "| stage | median ms (IQR) | what it covers |", "|---|---|---|"]
    for s in vs["stages"]:
        if s["ms_median"] < 0.5 and not s["stage"].startswith("vm_"):
            continue
        L.append("| %s | %.1f (%.1f-%.1f) | %s |" % (s["stage"], s["ms_median"], s["ms_q1"], s["ms_q3"],
                                                    s["what"] or "kernel / command layer (docs/benchmarks.md)"))
    L.append("")
    L.append("Kernel stages under 0.5 ms median are left out of the table (they are in results.json).")
    return L
