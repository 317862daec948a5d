"""One run of CPython's regression tests (`python3.11 -m test`), read test by test.

regrtest is run verbose with one worker process per module (-j1), so that a module that hangs or
crashes is killed and named instead of ending the run. Failing test ids come from the unittest
summary lines (`FAIL: name (id)` / `ERROR: ...`), which also name failing subtests; counts from
`Ran N tests` and `OK (skipped=N)`. regrtest's --junit-xml is not used: it drops the names of failing
subtests, and the output capture it turns on ends a module early when a test's thread writes to
stderr while the capture is being undone (unittest's `_restoreStdout`: no attribute 'getvalue').
"""
import re
from dataclasses import dataclass, field

PYTHON = "/usr/bin/python3.11"
TESTSUITE = "/usr/lib/python3.11/test/libregrtest"

# "0:00:03 load avg: 3.99 [3/3] test_select passed" (-j adds a third counter: failures so far)
PROGRESS = re.compile(r"^\d+:\d\d:\d\d (?:load avg: \S+ )?\[\s*\d+/\d+(?:/\d+)?\] (test_\w+)(?: (.*))?$")
# "test_err (test.test_x.Class.test_err) ... ERROR": a test started (its outcome may follow later)
STARTED = re.compile(r"^(\w+) \(((?:test|unittest)\.[\w.]+)\)")
# unittest's summary: "FAIL: test_sub (test.test_x.Class.test_sub) (i=1)"
SUMMARY = re.compile(r"^(FAIL|ERROR): (\w+) \(([\w.]+)\)")
RAN = re.compile(r"^Ran (\d+) tests? in ")
VERDICT = re.compile(r"^(?:OK|FAILED) \((.*)\)$")
OUTCOME_WORDS = (" ... ok", " ... FAIL", " ... ERROR", " ... skipped", " ... expected failure",
                 " ... unexpected success")


@dataclass
class ModuleResult:
    name: str
    status: str = "not run"
    detail: str = ""
    tests: int | None = None
    skipped: int | None = None
    failing: set = field(default_factory=set)
    skipped_ids: set = field(default_factory=set)

    @property
    def completed(self):
        return self.status in ("passed", "failed", "env changed", "skipped", "no tests")


@dataclass
class RunResult:
    modules: dict

    def failing(self):
        return set().union(*(m.failing for m in self.modules.values())) if self.modules else set()

    def skipped(self):
        return set().union(*(m.skipped_ids for m in self.modules.values())) if self.modules else set()


def argv(modules, ignore=(), match_file=None, timeout=300, python=PYTHON):
    """The command line of one run: verbose, one worker, a per-test timeout that kills a hung worker."""
    a = [python, "-m", "test", "-v", "-j1", "--timeout", str(timeout)]
    for pattern in ignore:
        a += ["-i", pattern]
    if match_file:
        a += ["--matchfile", match_file]
    return a + list(modules)


def test_id(name, where):
    """`setUpClass (test.test_x.C)` -> test.test_x.C.setUpClass; `test_a (test.test_x.C.test_a)` -> as is."""
    return where if where.endswith("." + name) else where + "." + name


def status_of(text):
    text = (text or "").strip()
    for prefix, status in (("passed", "passed"), ("failed (env changed)", "env changed"), ("failed", "failed"),
                           ("skipped", "skipped"), ("crashed", "crashed"), ("timed out", "timed out"),
                           ("ran no tests", "no tests"), ("interrupted", "interrupted")):
        if text.startswith(prefix):
            return status
    return "other"


def parse_log(text, modules):
    """Per-module status and failing ids from regrtest's verbose output."""
    results = {m: ModuleResult(m) for m in modules}
    current, last_started = None, None

    def close():
        m = results.get(current)
        if m is None:
            return
        if m.status in ("crashed", "timed out", "interrupted", "other") or (m.status == "failed" and not m.failing):
            # No summary for this module: name the test that was running, else the module itself.
            where = last_started or "test." + m.name
            m.failing.add(f"{where} [{m.status if m.status != 'other' else m.detail or 'no result'}]")

    for line in text.splitlines():
        p = PROGRESS.match(line)
        if p:
            close()
            current, last_started = p.group(1), None
            m = results.setdefault(current, ModuleResult(current))
            m.status, m.detail = status_of(p.group(2)), (p.group(2) or "").strip()
            continue
        m = results.get(current)
        s = SUMMARY.match(line)
        if s and m:
            m.failing.add(test_id(s.group(2), s.group(3)))
            continue
        ran, verdict = RAN.match(line), VERDICT.match(line)
        if ran and m:
            m.tests = (m.tests or 0) + int(ran.group(1))
            m.skipped = m.skipped or 0
        if verdict and m:
            skipped = re.search(r"skipped=(\d+)", verdict.group(1))
            m.skipped = (m.skipped or 0) + (int(skipped.group(1)) if skipped else 0)
        t = STARTED.match(line)
        if t:
            started = test_id(t.group(1), t.group(2))
            finished = any(w in line for w in OUTCOME_WORDS)
            last_started = None if finished else started
            if " ... skipped" in line and m:
                m.skipped_ids.add(started)
        elif last_started and m and " ... " in line and any(w in line for w in OUTCOME_WORDS):
            # the outcome of a test whose docstring or output came first
            if " ... skipped" in line:
                m.skipped_ids.add(last_started)
            last_started = None
    close()
    return results


def read_run(log_text, modules):
    return RunResult(parse_log(log_text, modules))
