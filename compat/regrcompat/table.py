"""The per-module table (markdown) and the machine-readable results of one comparison."""
import json


def _count(ids):
    return str(len(ids))


def module_rows(modules, runs, comparisons):
    """One row per module: tests, failures per mode, the difference and the domains that explain it."""
    rows = []
    for name in modules:
        base = runs.get("unconfined")
        tests = base.modules[name].tests if base and name in base.modules else None
        row = {"module": name, "tests": tests}
        for mode, run in runs.items():
            m = run.modules.get(name)
            row[mode] = None if m is None else {"status": m.status, "failing": sorted(m.failing)}
        diff, domains, unexplained = set(), set(), set()
        for c in comparisons:
            for test, why in c.only_confined.items():
                if _module_of(test) == name:
                    diff.add(test)
                    (domains.add(why.domain) if why else unexplained.add(test))
            for test in c.only_unconfined:
                if _module_of(test) == name:
                    diff.add(test)
                    unexplained.add(test)
        row.update(difference=sorted(diff), domains=sorted(domains), unexplained=sorted(unexplained),
                   skipped_only_confined=sorted({t for c in comparisons for t in c.skipped_only_confined
                                                 if _module_of(t) == name}),
                   skipped_only_unconfined=sorted({t for c in comparisons for t in c.skipped_only_unconfined
                                                   if _module_of(t) == name}))
        rows.append(row)
    return rows


def _module_of(test):
    parts = test.split(".")
    return parts[1].split(" ")[0] if len(parts) > 1 and parts[0] == "test" else test.split(" ")[0]


def _few(ids, n=3):
    return " ".join(ids[:n]) + (f" and {len(ids) - n} more (results.json)" if len(ids) > n else "")


def markdown(rows, modes):
    confined = [m for m in modes if m != "unconfined"]
    head = (["module", "tests", "unconfined failures"] + [f"{m} failures" for m in confined]
            + ["difference", "reason", "skips only confined / only unconfined"])
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    totals = {"tests": 0, "difference": 0, **{m: 0 for m in modes}}
    for r in rows:
        cells = [r["module"], "—" if r["tests"] is None else str(r["tests"])]
        totals["tests"] += r["tests"] or 0
        for m in modes:
            v = r.get(m)
            cells.append("—" if v is None else _count(v["failing"]) + ("" if v["status"] != "timed out" else " (timed out)"))
            totals[m] += 0 if v is None else len(v["failing"])
        totals["difference"] += len(r["difference"])
        reason = ", ".join(r["domains"] + (["UNEXPLAINED: " + _few(r["unexplained"])] if r["unexplained"] else []))
        cells += [str(len(r["difference"])), reason or "—",
                  f"{len(r['skipped_only_confined'])} / {len(r['skipped_only_unconfined'])}"]
        out.append("| " + " | ".join(cells) + " |")
    out.append("| **total** | " + " | ".join([str(totals["tests"])] + [str(totals[m]) for m in modes]
                                            + [str(totals["difference"]), "", ""]) + " |")
    return "\n".join(out) + "\n"


def write_results(path, scope, runs, comparisons, rows, durations):
    data = {
        "scope": scope,
        "durations_seconds": durations,
        "runs": {mode: {name: {"status": m.status, "detail": m.detail, "tests": m.tests, "skipped": m.skipped,
                               "failing": sorted(m.failing)} for name, m in run.modules.items()}
                 for mode, run in runs.items()},
        "comparisons": [{"mode": c.mode, "equal": c.equal,
                         "only_confined": {t: (None if e is None else f"{e.domain}: {e.reason}")
                                           for t, e in c.only_confined.items()},
                         "unexplained": c.unexplained, "only_unconfined": sorted(c.only_unconfined),
                         "expected_not_seen": [e.pattern for e in c.expected_unseen],
                         "skipped_only_confined": sorted(c.skipped_only_confined),
                         "skipped_only_unconfined": sorted(c.skipped_only_unconfined)} for c in comparisons],
        "modules": rows,
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, sort_keys=False)
        f.write("\n")
