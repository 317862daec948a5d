"""Outputs: summary.md, the printed verdict, PNG charts, and the fingerprint-guarded comparison."""
import json, os

from . import report_launch, rules, vmstages

ARM_ORDER = ["unconfined", "resident", "native-cli", "native-api", "sandlock", "sandlock-api", "container-cli",
             "container-api", "vm-cli", "vm-resident", "bwrap", "sandlock-direct", "negative-control"]
COLOURS = {"GREEN": "#2e7d32", "AMBER": "#f9a825", "RED": "#c62828"}


class ChartsRequired(Exception):
    pass


def _fmt(family, value):
    if value is None:
        return "-"
    kind = rules.THRESHOLDS[family][2]
    return {"added_ms": "%+.1f ms", "added_mib": "%+.2f MiB"}.get(kind, "%.2fx") % value


def _cell(r, judged):
    g = r["grade"]
    if g in (rules.NA,):
        return "n/a"
    if g in (rules.NOT_MEASURED, rules.UNSTABLE, rules.FAILED):
        why = next((w.get("reason", "") for w in r["workloads"] if w["grade"] == g), "")
        if r.get("ungraded_value") is not None:
            why = "ungraded %s; %s" % (_fmt(r["family"], r["ungraded_value"]), why)
        return "%s (%s)" % (g, why) if why else g
    v = _fmt(r["family"], r["value"])
    return ("%s %s" % (g, v)) if judged else v


def _ordered(d):
    """Arms in a fixed reading order (results.json sorts its keys)."""
    return {k: d[k] for k in sorted(d, key=lambda k: (ARM_ORDER.index(k) if k in ARM_ORDER else 99, k))}


def summary(res):
    res = dict(res, arms=_ordered(res["arms"]), grades=_ordered(res["grades"]), samples=_ordered(res["samples"]))
    judged = res["judged"]
    fp = res["fingerprint"]
    L = ["# aasm isolation benchmark: %s mode, %s" % (res["mode"], res["started_utc"]), ""]
    if not judged:
        L += ["**Quick mode: the pipeline was exercised end to end; performance is NOT judged.** "
              "Numbers below are smoke values from tiny workloads.", ""]
    else:
        nc = res["negative_control"]
        L += ["Run validity: **%s** (negative control: %s)." % (res["control_validity"], nc["reason"]), ""]
    L += ["Rules: benchmarks/METHODOLOGY.md (pre-registered). Repetitions: %d warm-up + %d kept, arms alternating. "
          "Priority: %s." % (res["repetitions"]["warmup"], res["repetitions"]["kept"], res.get("priority", "?")),
          "Load average before/after: %s / %s (other work shared the machine)." % (
              " ".join("%.2f" % x for x in res["load_average"]["before"]),
              " ".join("%.2f" % x for x in res["load_average"]["after"])), "",
          "## Arms", "", "| Arm | Present | Note |", "|---|---|---|"]
    for arm_id, row in res["arms"].items():
        L.append("| %s | %s | %s |" % (arm_id, "yes" if row["present"] else "**absent**", row["reason"]))
    arms_graded = list(res["grades"].keys())
    L += ["", "## Grades per family (confined vs unconfined, same run)", "",
          "| Family | " + " | ".join(arms_graded) + " |", "|---|" + "---|" * len(arms_graded)]
    for fam in rules.THRESHOLDS:
        L.append("| %s %s | " % (fam, rules.FAMILY_TITLES[fam]) +
                 " | ".join(_cell(res["grades"][a]["families"][fam], judged) for a in arms_graded) + " |")
    if judged:
        L.append("| **verdict** | " + " | ".join("**%s**" % res["grades"][a]["verdict"] for a in arms_graded) + " |")
    L += ["", "UNSTABLE cells show the ungraded point value for reading only; grey hatched bars in the charts. "
          "Ratios of P2-P5 and P7 are steady-state ratios (launch cost removed; P1 grades it). "
          "Total ratios and raw medians are in results.json and below.", "",
          "## Medians per workload (ms; P6 row: MiB)", "",
          "| Workload | " + " | ".join(res["samples"].keys()) + " |", "|---|" + "---|" * len(res["samples"])]
    workloads = []
    for arm in res["samples"].values():
        workloads += [w for w in arm if w not in workloads]
    for w in workloads:
        row = []
        for arm in res["samples"].values():
            s = [x["wall_ms"] for x in arm.get(w, []) if x.get("wall_ms") is not None]
            if not s:
                row.append("-")
                continue
            d = rules.describe(s)
            row.append("%.1f (IQR %.0f%%)" % (d["median"], 100 * d["rel_iqr"]))
        L.append("| %s | %s |" % (w, " | ".join(row)))
    row = []
    for arm in res["samples"].values():
        s = [x["rss_mib"] for x in arm.get("startup_nop", []) if x.get("rss_mib") is not None]
        row.append("%.2f" % rules.describe(s)["median"] if s else "-")
    L.append("| startup_nop peak RSS (MiB) | %s |" % " | ".join(row))
    L += report_launch.sections(res)
    if "vm_stages" in res:
        L += vmstages.section(res["vm_stages"])
    L += ["", "## Caveats stated by the harness", "",
          "- bwrap cannot allow a single port: for P5 only, its arm runs with `--share-net`. It has no syscall "
          "deny list and no memory/process ceilings, so it enforces less than the aasm policy.",
          "- native-api and sandlock-api P6 are NOT_MEASURED: the tree is a child of the warm JVM, which cannot"
          " wait4 it.",
          "- native-cli includes a JVM start per launch; its P6 is the JVM's peak RSS, by design of the arm.",
          "- native-cli, sandlock and the other CLI arms run with AASM_CLIENT=off (cold: a JVM per launch); the "
          "resident arm goes through bin/aasm and aasm-client to a kernel of the run's own, and its P6 is "
          "NOT_MEASURED (wait4 sees the client; the launched tree is the kernel's child).",
          "- sandlock-direct is the sandlock tool itself (no aasm) with the same read/write paths, the one port, "
          "process/open-file/memory limits and a clean environment; its syscall deny list is sandlock's own default "
          "blocklist, not the policy's 13 names.",
          "- container-cli and container-api run the bench policy with egress stated as none (METHODOLOGY.md "
          "amendment 3: the container backend has no egress path yet), so their P5 is NOT_MEASURED; their P6 is "
          "the CLI JVM's (the container's processes are the engine's children); memory per running container is "
          "reported below instead."] + _container_memory(res.get("container_memory")) + [
          "", "## Fingerprint", ""]
    L += ["- %s: %s" % (k, fp.get(k)) for k in rules.FINGERPRINT_KEYS]
    if res.get("charts", {}).get("files"):
        L += ["", "## Charts", ""] + ["![%s](charts/%s)" % (f, f) for f in res["charts"]["files"]]
    elif res.get("charts"):
        L += ["", "Charts: %s" % res["charts"]["note"]]
    return "\n".join(L) + "\n"


def _container_memory(m):
    """Memory per running container (amendment 3), reported next to the grades, not graded."""
    if not m:
        return []
    L = ["", "## Memory per running container (aasm-container; reported, not graded)", ""]
    if not m.get("measured"):
        return L + ["Not measured: %s." % m.get("reason")]
    L += ["%d containers running the same sleep at once; the same sleep unconfined holds %.0f KiB." % (
        m["k"], m["unconfined_program_rss_kib"]), "",
          "| container | shim KiB | guard KiB | init KiB | program KiB | cgroup usage KiB |", "|---|---|---|---|---|---|"]
    for r in m["containers"]:
        L.append("| %s | %s | %s | %s | %s | %s |" % (r["id"], r["shim"], r["guard"], r["init"], r["program"],
                                                     r["cgroup_usage_kib"]))
    L += ["", "Added resident memory per running container (shim + guard + init + program, minus the program "
          "unconfined), median: **%.2f MiB**; the container's memory cgroup, median: %.2f MiB; the engine daemons "
          "grew by %.2f MiB per container while they ran (informative)." % (
              m["added_rss_mib_median"], m["cgroup_usage_mib_median"],
              m["engine_daemons_rss_delta_mib_per_container"])]
    return L


def verdict_text(res):
    res = dict(res, arms=_ordered(res["arms"]), grades=_ordered(res["grades"]))
    L = ["", "=== aasm benchmark verdict (%s mode) ===" % res["mode"]]
    for arm_id, row in res["arms"].items():
        if not row["present"]:
            L.append("%-17s ABSENT: %s" % (arm_id, row["reason"]))
    for arm_id, g in res["grades"].items():
        fams = "  ".join("%s=%s" % (f, r["grade"] if r["grade"] != rules.NA else "n/a")
                         for f, r in g["families"].items())
        if res["judged"]:
            L.append("%-17s %-12s %s" % (arm_id, g["verdict"], fams))
        else:
            measured = "  ".join("%s=%s" % (f, "measured" if r["grade"] in rules.SEVERITY else r["grade"])
                                 for f, r in g["families"].items())
            L.append("%-17s (not judged) %s" % (arm_id, measured))
    if res["judged"]:
        L.append("run: %s (%s)" % (res["control_validity"], res["negative_control"]["reason"]))
    else:
        L.append("quick mode: pipeline ok, negative-control wiring: %s; performance NOT judged"
                 % res["negative_control"]["wiring"]["reason"])
    return "\n".join(L)


def charts(res, out_dir, required):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        if required:
            raise ChartsRequired("full mode requires PNG charts: install matplotlib (apt-get install -y "
                                 "python3-matplotlib) and run with /usr/bin/python3")
        return {"files": [], "note": "skipped: matplotlib not installed"}
    os.makedirs(out_dir, exist_ok=True)
    res = dict(res, grades=_ordered(res["grades"]))
    files = []
    for fam, (green, amber, kind) in rules.THRESHOLDS.items():
        names, values, cols, hatches = [], [], [], []
        for arm_id, g in res["grades"].items():
            r = g["families"][fam]
            v = r["value"] if r.get("value") is not None else r.get("ungraded_value")
            if v is None:
                continue
            graded = r.get("value") is not None
            names.append(arm_id if graded else arm_id + "\n(%s)" % r["grade"])
            values.append(v)
            cols.append(COLOURS.get(r["grade"], "#9e9e9e") if res["judged"] and graded else "#9e9e9e")
            hatches.append("" if graded else "//")
        if not names:
            continue
        fig, ax = plt.subplots(figsize=(7, 3.6))
        bars = ax.bar(names, values, color=cols)
        for bar, h in zip(bars, hatches):
            bar.set_hatch(h)
        ax.axhline(green, color=COLOURS["GREEN"], linestyle="--", linewidth=1, label="GREEN bound")
        ax.axhline(amber, color=COLOURS["AMBER"], linestyle="--", linewidth=1, label="AMBER bound")
        if kind == "ratio":
            ax.axhline(1.0, color="black", linewidth=0.8)
        unit = {"added_ms": "added ms vs unconfined", "added_mib": "added MiB vs unconfined"}.get(
            kind, "ratio vs unconfined")
        ax.set_ylabel(unit)
        ax.set_title("%s %s%s" % (fam, rules.FAMILY_TITLES[fam], "" if res["judged"] else " (quick: not judged)"),
                     fontsize=10)
        ax.tick_params(axis="x", labelsize=8)
        for i, v in enumerate(values):
            ax.annotate(_fmt(fam, v), (i, v), ha="center", va="bottom", fontsize=8)
        ax.set_ylim(min(0.0, min(values) * 1.2), max(values + [amber]) * 1.2)
        ax.legend(fontsize=7, loc="upper right")
        fig.tight_layout()
        name = "%s.png" % fam
        fig.savefig(os.path.join(out_dir, name), dpi=90)
        plt.close(fig)
        files.append(name)
    return {"files": files, "note": "written"}


def compare(path_a, path_b, allow_cross_env):
    with open(path_a) as f:
        a = json.load(f)
    with open(path_b) as f:
        b = json.load(f)
    diff = rules.compare_fingerprints(a["fingerprint"], b["fingerprint"])
    if diff and not allow_cross_env:
        print("refused: the fingerprints differ in %s; results from different environments are not comparable "
              "(--allow-cross-env prints them anyway, stamped INVALID_CONTROL)" % ", ".join(diff))
        return 4
    print("control_validity: %s" % ("INVALID_CONTROL" if diff else "VALID"))
    print("verdict: %s" % ("null" if diff else "see per-arm rows"))
    for arm_id in sorted(set(a["grades"]) & set(b["grades"])):
        for fam in rules.THRESHOLDS:
            ra, rb = a["grades"][arm_id]["families"][fam], b["grades"][arm_id]["families"][fam]
            print("%-17s %s  A: %-10s %-12s B: %-10s %s" % (arm_id, fam, ra["grade"], _fmt(fam, ra["value"]),
                                                         rb["grade"], _fmt(fam, rb["value"])))
    return 0
