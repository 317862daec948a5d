"""compat/run: CPython 3.11's regression tests unconfined and under aasm-native, failures compared.

  compat/run --gate     the CI subset (compat/gate.txt), a few minutes
  compat/run --full     the 17 modules of compat/modules.txt (about an hour on 2 cores)
  compat/run --modules test_os,test_pty ...

Exit: 0 the confined failures equal the unconfined ones but for compat/expected-differences.txt;
1 they differ (the ids are printed); 2 usage or a bad list file; 3 environment cannot host this check
(no /usr/bin/python3.11 or no Debian package libpython3.11-testsuite); 4 a run was not what it claims
(not confined on aasm-native, not served by the resident kernel, killed at the time limit, no result).
"""
import argparse
import datetime
import fnmatch
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass

from . import compare, lists, modes, regrtest, table

COMPAT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(COMPAT)
DIST = os.path.join(REPO, "distribution", "target", "aasm-0.1.0-SNAPSHOT")
ALL_MODES = ("unconfined", "cold", "resident")
# regrtest's own exit codes that still mean "every module gave a result": success, failures, env changed
RESULT_CODES = (0, 2, 3)


@dataclass
class Work:
    """Where one mode runs: the project folder is the launch's working directory (writable)."""
    root: str
    project: str
    home: str
    log: str
    report: str

    @classmethod
    def make(cls, out, mode):
        root = os.path.join(out, mode)
        w = cls(root, os.path.join(root, "project"), os.path.join(root, "home"), os.path.join(root, "regrtest.log"),
                os.path.join(root, "report.json"))
        os.makedirs(w.project, exist_ok=True)
        os.makedirs(w.home, exist_ok=True)
        return w


def parse(argv):
    p = argparse.ArgumentParser(prog="compat/run", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    scope = p.add_mutually_exclusive_group(required=True)
    scope.add_argument("--gate", action="store_true", help="the fixed CI subset (compat/gate.txt)")
    scope.add_argument("--full", action="store_true", help="the 17 modules of compat/modules.txt")
    scope.add_argument("--modules", help="comma-separated regrtest modules")
    scope.add_argument("--self-test", action="store_true", help="unit tests of the harness itself")
    scope.add_argument("--report", metavar="OUT", help="compare again from the logs of an earlier run's folder")
    p.add_argument("--modes", default=",".join(ALL_MODES), help="comma list of unconfined,cold,resident")
    p.add_argument("--aasm-home", default=DIST, help="distribution folder with bin/aasm (default: the build output)")
    p.add_argument("--policy", default=os.path.join(COMPAT, "policy.yaml"))
    p.add_argument("--expected", default=os.path.join(COMPAT, "expected-differences.txt"))
    p.add_argument("--out", help="results folder (default compat/results/<UTC time>)")
    p.add_argument("--test-timeout", type=int, help="seconds per test before regrtest kills the module's worker")
    p.add_argument("--run-timeout", type=int, help="seconds per mode before the whole run is killed")
    return p.parse_args(argv)


def cannot_host():
    for path, what in ((regrtest.PYTHON, "no " + regrtest.PYTHON),
                       (regrtest.TESTSUITE, "no CPython test suite (Debian package libpython3.11-testsuite)")):
        if not os.path.exists(path):
            return what
    return None


def runtime_dir(out):
    """The resident kernel's runtime folder: in the results, unless its socket path would be too long there."""
    rt = os.path.join(out, "rt")
    return rt if len(rt) + len("/aasm.sock") <= 100 else tempfile.mkdtemp(prefix="aasm-compat-rt-")


def run_mode(mode, work, regr_argv, run_timeout, modules_wanted):
    start = time.monotonic()
    code = mode.run(regr_argv, work, run_timeout)
    took = round(time.monotonic() - start, 1)
    with open(work.log, encoding="utf-8", errors="replace") as f:
        result = regrtest.read_run(f.read(), modules_wanted)
    missing = [m for m, r in result.modules.items() if r.status == "not run"]
    if code not in RESULT_CODES or missing:
        raise modes.RunInvalid(f"{mode.name}: regrtest exit {code}, modules without a result: {missing or 'none'}; "
                               f"see {work.log}")
    return result, took


def main(argv=None):
    a = parse(sys.argv[1:] if argv is None else argv)
    if a.self_test:
        import unittest
        suite = unittest.defaultTestLoader.discover(os.path.join(COMPAT, "tests"), top_level_dir=COMPAT)
        return 0 if unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful() else 1
    if a.report:
        return again(a)
    why = cannot_host()
    if why:
        print(f"compat/run: environment cannot host this check: {why}", file=sys.stderr)
        return 3
    try:
        modules_wanted, patterns = lists.scope(a.gate, a.full, a.modules)
        expected = compare.load_expected(a.expected)
        ignore = lists.ignored()
    except (OSError, compare.ListError) as e:
        print(f"compat/run: {e}", file=sys.stderr)
        return 2
    wanted = [m.strip() for m in a.modes.split(",")]
    if not wanted or any(m not in ALL_MODES for m in wanted) or "unconfined" not in wanted or len(wanted) < 2:
        print(f"compat/run: --modes must list unconfined and at least one of cold, resident: {a.modes}", file=sys.stderr)
        return 2
    if not os.access(os.path.join(a.aasm_home, "bin", "aasm"), os.X_OK):
        print(f"compat/run: no {a.aasm_home}/bin/aasm: build it first (mvn -B -q -DskipTests install)", file=sys.stderr)
        return 2
    out = os.path.abspath(a.out or os.path.join(COMPAT, "results",
                                                datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ")))
    os.makedirs(out, exist_ok=True)
    test_timeout = a.test_timeout or (120 if a.gate else 300)
    run_timeout = a.run_timeout or (600 if a.gate else 3 * 3600)
    policy, home = os.path.abspath(a.policy), os.path.abspath(a.aasm_home)
    runners = {"unconfined": modes.Unconfined(), "cold": modes.Cold(home, policy),
               "resident": modes.Resident(home, policy, runtime_dir(out))}
    runs, durations = {}, {}
    for name in wanted:
        work = Work.make(out, name)
        match_file = None
        if patterns:
            # in the project folder: the one place of the results a confined run can read
            match_file = os.path.join(work.project, "gate-match.txt")
            with open(match_file, "w") as f:
                f.write("\n".join(patterns) + "\n")
        regr = regrtest.argv(modules_wanted, ignore, match_file, test_timeout)
        print(f"compat/run: {name}: {len(modules_wanted)} module(s) ...", flush=True)
        try:
            runs[name], durations[name] = run_mode(runners[name], work, regr, run_timeout, modules_wanted)
        except modes.RunInvalid as e:
            print(f"compat/run: INVALID RUN: {e}", file=sys.stderr)
            return 4
        print(f"compat/run: {name}: {len(runs[name].failing())} failing, {durations[name]} s", flush=True)

    return conclude(out, modules_wanted, patterns, ignore, expected, runs, durations)


def again(a):
    """--report: the comparison of an earlier run's folder, from its logs and the current expected list."""
    out = os.path.abspath(a.report)
    try:
        with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
            earlier = json.load(f)
        expected = compare.load_expected(a.expected)
        scope = earlier["scope"]
        runs = {}
        for mode in scope["modes"]:
            with open(os.path.join(out, mode, "regrtest.log"), encoding="utf-8", errors="replace") as f:
                runs[mode] = regrtest.read_run(f.read(), scope["modules"])
    except (OSError, ValueError, KeyError, compare.ListError) as e:
        print(f"compat/run: cannot compare {out} again: {e}", file=sys.stderr)
        return 2
    return conclude(out, scope["modules"], scope["patterns"], scope["ignored"], expected, runs,
                    earlier.get("durations_seconds", {}))


def conclude(out, modules_wanted, patterns, ignore, expected, runs, durations):
    wanted = list(runs)

    def in_scope(pattern):
        mod = pattern.split(".")[1] if pattern.startswith("test.") else ""
        return mod in modules_wanted and (not patterns or any(fnmatch.fnmatchcase(pattern, p) for p in patterns))

    base = runs["unconfined"].failing()
    skipped = runs["unconfined"].skipped()
    comparisons = [compare.compare(m, base, runs[m].failing(), expected, in_scope, (skipped, runs[m].skipped()))
                   for m in wanted if m != "unconfined"]
    rows = table.module_rows(modules_wanted, runs, comparisons)
    md = table.markdown(rows, wanted)
    with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as f:
        f.write(md)
    table.write_results(os.path.join(out, "results.json"), {"modules": modules_wanted, "patterns": patterns,
                        "ignored": ignore, "modes": wanted}, runs, comparisons, rows, durations)
    print(md)
    return report(comparisons, out)


def report(comparisons, out):
    ok = True
    for c in comparisons:
        by_entry = {}
        for test, why in c.only_confined.items():
            if why is not None:
                by_entry.setdefault(why, []).append(test)
        for why, tests in by_entry.items():
            what = tests[0] if len(tests) == 1 else f"{len(tests)} tests matching {why.pattern}"
            print(f"  {c.mode}: expected difference: {what} ({why.domain}: {why.reason})")
        for test in c.unexplained:
            print(f"  {c.mode}: FAILS ONLY CONFINED, not an expected difference: {test}")
        for test in sorted(c.only_unconfined):
            print(f"  {c.mode}: FAILS ONLY UNCONFINED: {test}")
        for e in c.expected_unseen:
            print(f"  {c.mode}: note: expected difference not seen this time: {e.pattern}")
        if c.skipped_only_confined or c.skipped_only_unconfined:
            print(f"  {c.mode}: note: {len(c.skipped_only_confined)} test(s) skipped only confined, "
                  f"{len(c.skipped_only_unconfined)} only unconfined (not judged; listed in results.json)")
        ok = ok and c.equal
    print(f"compat/run: {'EQUAL' if ok else 'DIFFERENT'}: confined failures "
          f"{'equal' if ok else 'differ from'} the unconfined ones{' but for the expected differences' if ok else ''}; "
          f"details in {out}/summary.md and results.json")
    return 0 if ok else 1
