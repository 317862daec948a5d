"""The pre-registered decision rules of METHODOLOGY.md, as pure functions (no I/O, unit-tested).

Every threshold here is copied from METHODOLOGY.md sections 5-8; a change to one is an amendment
there first."""
import statistics

GREEN, AMBER, RED = "GREEN", "AMBER", "RED"
UNSTABLE, FAILED, NOT_MEASURED, NA = "UNSTABLE", "FAILED", "NOT_MEASURED", "n/a"

# family -> (green bound, amber bound, kind); "added" families are differences, "ratio" families quotients.
THRESHOLDS = {
    "P1": (50.0, 250.0, "added_ms"),
    "P2": (1.05, 1.25, "ratio"),
    "P3": (1.10, 1.50, "ratio"),
    "P4": (1.10, 1.50, "ratio"),
    "P5": (1.10, 1.50, "ratio"),
    "P6": (32.0, 128.0, "added_mib"),
    "P7": (1.05, 1.20, "ratio"),
    "T1": (2.0, 10.0, "ratio"),
}
FAMILY_WORKLOADS = {
    "P1": ["startup_nop"],
    "P2": ["general_python"],
    "P3": ["repo_traversal", "many_small_files"],
    "P4": ["process_spawn"],
    "P5": ["tcp_loopback"],
    "P6": ["startup_nop"],
    "P7": ["cpu_loop"],
    "T1": ["throughput"],
}
FAMILY_TITLES = {
    "P1": "startup no-op (added ms)", "P2": "general workload", "P3": "filesystem", "P4": "process spawn",
    "P5": "loopback TCP (allowed port)", "P6": "peak RSS (added MiB)", "P7": "CPU-bound",
    "T1": "warm launch throughput",
}
STEADY_STATE = {"P2", "P3", "P4", "P5", "P7"}
REL_IQR_MAX = 0.15
ABS_IQR_FRACTION_OF_GREEN = 0.10
NEGATIVE_CONTROL_DELAY_MS = 500.0
NEGATIVE_CONTROL_TOLERANCE = 0.40
MIN_KEPT_FULL = 10
SEVERITY = {GREEN: 0, AMBER: 1, RED: 2}


def quartiles(values):
    """(q1, median, q3) with the inclusive linear method; a single value is its own quartiles."""
    vals = sorted(values)
    if len(vals) == 1:
        return vals[0], vals[0], vals[0]
    q1, q2, q3 = statistics.quantiles(vals, n=4, method="inclusive")
    return q1, q2, q3


def describe(values):
    q1, med, q3 = quartiles(values)
    iqr = q3 - q1
    return {"n": len(values), "median": med, "q1": q1, "q3": q3, "iqr": iqr,
            "rel_iqr": (iqr / med) if med > 0 else float("inf") if iqr > 0 else 0.0,
            "min": min(values), "max": max(values)}


def admissible(samples, family, min_reps, metric="wall_ms"):
    """(ok, reason) for one (arm, workload) series; samples are dicts with 'rc' and the metric."""
    if len(samples) < min_reps:
        return False, "only %d kept repetitions (< %d)" % (len(samples), min_reps)
    bad = [s["rc"] for s in samples if s["rc"] != 0]
    if bad:
        return False, "%d of %d samples exited non-zero (%s)" % (len(bad), len(samples), sorted(set(bad)))
    d = describe([s[metric] for s in samples])
    if d["rel_iqr"] <= REL_IQR_MAX:
        return True, "relative IQR %.3f <= %.2f" % (d["rel_iqr"], REL_IQR_MAX)
    kind = THRESHOLDS[family][2]
    if kind != "ratio":
        limit = ABS_IQR_FRACTION_OF_GREEN * THRESHOLDS[family][0]
        if d["iqr"] <= limit:
            return True, "absolute IQR %.2f <= %.2f" % (d["iqr"], limit)
    return False, "relative IQR %.3f > %.2f" % (d["rel_iqr"], REL_IQR_MAX)


def colour(family, value):
    green, amber, _ = THRESHOLDS[family]
    if value <= green:
        return GREEN
    return AMBER if value <= amber else RED


def grade_workload(family, workload, arm, base, min_reps):
    """Grades one workload of one family. arm/base: {workload: [samples]} of the graded arm and of the
    baseline arm. Returns a dict with grade, value, and the reasons behind it."""
    metric = "rss_mib" if family == "P6" else "wall_ms"
    a, b = arm.get(workload), base.get(workload)
    if not a:
        return {"workload": workload, "grade": NOT_MEASURED, "reason": "arm has no samples"}
    if not b:
        return {"workload": workload, "grade": NOT_MEASURED, "reason": "baseline has no samples"}
    if any(s["rc"] != 0 for s in a):
        rcs = sorted({s["rc"] for s in a if s["rc"] != 0})
        return {"workload": workload, "grade": FAILED, "reason": "arm samples exited %s" % rcs}
    if any(s.get(metric) is None for s in a + b):
        return {"workload": workload, "grade": NOT_MEASURED, "reason": "%s not measurable for this arm" % metric}
    point = _point(family, workload, arm, base, metric)
    series = [("arm", a), ("baseline", b)]
    if family in STEADY_STATE:
        series += [("arm startup", arm.get("startup_nop") or []), ("baseline startup", base.get("startup_nop") or [])]
    for name, s in series:
        fam = "P1" if name.endswith("startup") else family
        ok, why = admissible(s, fam, min_reps, metric)
        if not ok:
            # the point estimate is kept for people to read, but it is not a grade
            return dict(point, value=None, ungraded_value=point.get("value"), grade=UNSTABLE,
                        reason="%s: %s" % (name, why))
    if point.get("value") is None:
        return dict(point, grade=UNSTABLE, reason=point["reason"])
    return dict(point, grade=colour(family, point["value"]), reason="graded")


def _point(family, workload, arm, base, metric):
    """Medians and the family's value (added quantity, steady-state ratio or plain ratio), ungraded."""
    a, b = arm[workload], base[workload]
    ma = describe([s[metric] for s in a])["median"]
    mb = describe([s[metric] for s in b])["median"]
    out = {"workload": workload, "arm_median": ma, "baseline_median": mb}
    if THRESHOLDS[family][2] != "ratio":
        return dict(out, value=ma - mb)
    if family not in STEADY_STATE:
        return dict(out, value=ma / mb)
    if not arm.get("startup_nop") or not base.get("startup_nop"):
        return dict(out, value=None, reason="no startup samples to remove the launch cost")
    sa = ma - describe([s["wall_ms"] for s in arm["startup_nop"]])["median"]
    sb = mb - describe([s["wall_ms"] for s in base["startup_nop"]])["median"]
    out.update(total_ratio=ma / mb, arm_steady_ms=sa, baseline_steady_ms=sb)
    if sb <= 0:
        return dict(out, value=None, reason="baseline steady-state time <= 0 ms (workload too small)")
    return dict(out, value=max(sa, 0.0) / sb)


def grade_family(family, arm, base, min_reps):
    """The family grade is its worst workload: FAILED > UNSTABLE > RED > AMBER > GREEN (NOT_MEASURED if none)."""
    parts = [grade_workload(family, w, arm, base, min_reps) for w in FAMILY_WORKLOADS[family]]
    grades = [p["grade"] for p in parts]
    for g in (FAILED, UNSTABLE, NOT_MEASURED):
        if g in grades:
            worst = next(p for p in parts if p["grade"] == g)
            seen = [p.get("value") if p.get("value") is not None else p.get("ungraded_value") for p in parts]
            seen = [v for v in seen if v is not None]
            return {"family": family, "grade": g, "value": None, "workloads": parts,
                    "ungraded_value": max(seen) if seen and g == UNSTABLE else None}
    worst = max(parts, key=lambda p: (SEVERITY[p["grade"]], p["value"]))
    return {"family": family, "grade": worst["grade"], "value": worst["value"], "workloads": parts}


def arm_verdict(family_grades):
    """METHODOLOGY.md section 8. family_grades: {family: grade}."""
    counted = {f: g for f, g in family_grades.items() if g not in (NOT_MEASURED, NA)}
    if not counted:
        return NOT_MEASURED
    if all(g == FAILED for g in counted.values()):
        return FAILED
    if RED in counted.values():
        return RED
    if any(g in (UNSTABLE, FAILED) for g in counted.values()):
        return "INCONCLUSIVE"
    return AMBER if AMBER in counted.values() else GREEN


def negative_control(p1_result, injected_ms=NEGATIVE_CONTROL_DELAY_MS):
    """Run validity (section 7): the control's P1 must be RED and recover the delay within +-40 %."""
    grade, value = p1_result.get("grade"), p1_result.get("value")
    lo, hi = injected_ms * (1 - NEGATIVE_CONTROL_TOLERANCE), injected_ms * (1 + NEGATIVE_CONTROL_TOLERANCE)
    out = {"injected_ms": injected_ms, "recovered_ms": value, "accepted_range_ms": [lo, hi], "grade": grade}
    if grade != RED:
        return dict(out, valid=False, reason="negative control graded %s, not RED" % grade)
    if not (lo <= value <= hi):
        return dict(out, valid=False, reason="recovered delay %.1f ms outside %.0f..%.0f ms" % (value, lo, hi))
    return dict(out, valid=True, reason="graded RED, delay recovered %.1f ms" % value)


FINGERPRINT_KEYS = ("os", "kernel", "machine", "cpu_model", "cores", "landlock_abi", "scratch_fs", "jdk", "python",
                    "aasm_version", "bwrap", "sandlock")


def compare_fingerprints(a, b):
    """Differing fields between two fingerprints (empty list = comparable)."""
    return [k for k in FINGERPRINT_KEYS if a.get(k) != b.get(k)]
