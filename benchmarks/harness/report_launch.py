"""summary.md sections of METHODOLOGY.md amendment 5 (throughput TP, cold start CS, the resident kernel's CPU
per launch and resident set). Reported, not graded: issue 18's goals are printed next to the figures for
reading, and nothing here changes a verdict."""

GOALS = {"cold_ms": 400.0, "kernel_cpu_ms": 5.0, "idle_mib": 64.0, "soak_mib": 128.0}


def sections(res):
    return _throughput(res) + _cold(res.get("cold_start")) + _kernel(res)


def _throughput(res):
    tp = res.get("throughput")
    if not tp:
        return ["", "## TP launch throughput", "", "Not measured (no launcher arm present)."]
    levels = sorted({int(c) for arm in tp.values() for c in arm})
    L = ["", "## TP launch throughput (`/bin/true`, launches per second; reported, not graded)", "",
         "C clients, each launching back to back until the level's count is done; median rate over the rounds. "
         "Same policy strength for every arm (the run's read/write grants). Latency quantiles over every launch "
         "of the level.", "",
         "| Arm | " + " | ".join("c=%d launches/s (p50 / p95 ms)" % c for c in levels) + " | failed |",
         "|---|" + "---|" * len(levels) + "---|"]
    for arm_id, by in tp.items():
        cells, failed = [], 0
        for c in levels:
            f = by.get(c) or by.get(str(c))
            if not f:
                cells.append("-")
                continue
            failed += f["failed"]
            cells.append("%.1f (%s / %s)" % (f["per_s_median"], _ms(f["latency_p50_ms"]), _ms(f["latency_p95_ms"])))
        L.append("| %s | %s | %s |" % (arm_id, " | ".join(cells), failed))
    for arm_id, why in (res.get("throughput_not_run") or {}).items():
        L.append("| %s | %s | - |" % (arm_id, " | ".join(["n/a"] * (len(levels) - 1) + ["n/a: " + why])))
    ratio = _ratio_line(tp, "resident", "bwrap", 8)
    if ratio:
        L += ["", ratio]
    return L


def _ratio_line(tp, arm, peer, c):
    a, b = (tp.get(arm) or {}), (tp.get(peer) or {})
    fa, fb = a.get(c) or a.get(str(c)), b.get(c) or b.get(str(c))
    if not fa or not fb or not fb["per_s_median"]:
        return None
    return ("%s vs %s at %d clients: %.2fx the launches per second (issue 18's goal: >= 1.5x)."
            % (arm, peer, c, fa["per_s_median"] / fb["per_s_median"]))


def _ms(v):
    return "-" if v is None else "%.0f" % v


def _cold(cs):
    L = ["", "## CS cold start (`AASM_CLIENT=off`; reported, not graded)", ""]
    if not cs or not cs.get("measured"):
        return L + ["Not measured: %s." % ((cs or {}).get("reason") or "no data")]
    L += ["`%s`: median wall **%.0f ms** (IQR %.0f-%.0f; %d samples, the native-cli arm's P1), CPU (user + system "
          "of the whole tree) %s ms; `/bin/true` unconfined %s ms. Issue 18's goal: <= %.0f ms." % (
              cs["command"], cs["wall_ms_median"], cs["wall_ms_q1"], cs["wall_ms_q3"], cs["n"],
              _ms(cs.get("cpu_ms_median")), "%.1f" % cs["unconfined_wall_ms_median"]
              if cs.get("unconfined_wall_ms_median") is not None else "-", cs["goal_ms"])]
    if cs.get("phases"):
        L += ["", "Where it goes (`-Daasm.timing=true`, medians of separate cold runs; bundle starts over 5 ms "
                  "indented):", "", "| phase | ms | runs |", "|---|---|---|"]
        L += ["| %s | %.0f | %d |" % (p["phase"], p["ms_median"], p["runs"]) for p in cs["phases"]]
    return L


def _mib(v):
    return "%.1f" % v if v is not None else "–"


def _kernel(res):
    mem = res.get("resident_kernel")
    L = ["", "## The resident kernel (resident arm; reported, not graded)", ""]
    if not mem:
        return L + ["Not measured: the resident arm is absent."]
    L += ["| when | RSS MiB | of it anonymous MiB | Pss MiB | peak (VmHWM) MiB | threads |",
          "|---|---|---|---|---|---|"]
    L += ["| %s | %.1f | %s | %s | %.1f | %d |" % (k, v["rss_mib"], _mib(v.get("anon_mib")), _mib(v.get("pss_mib")),
                                                  v["hwm_mib"], v["threads"]) for k, v in mem.items()]
    tp = (res.get("throughput") or {}).get("resident") or {}
    cpu = ["c=%s: %.2f ms" % (c, f["kernel_cpu_ms_per_launch"]) for c, f in tp.items()
           if f.get("kernel_cpu_ms_per_launch") is not None]
    if cpu:
        L += ["", "Kernel CPU per launch (the kernel's /proc utime + stime over a throughput level, divided by its "
                  "launches): " + ", ".join(cpu) + "."]
    L += ["", "Issue 18's goals: idle RSS <= %.0f MiB, <= %.0f MiB through concurrency 32, kernel CPU <= %.0f ms per "
              "launch." % (GOALS["idle_mib"], GOALS["soak_mib"], GOALS["kernel_cpu_ms"])]
    return L
