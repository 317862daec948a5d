"""Confined failures against unconfined ones, and the committed list of differences that are expected.

A line of expected-differences.txt is `TEST_ID  DOMAIN: reason`: the test fails only when confined
because the policy denies it something in DOMAIN (one of the nine capability domains). TEST_ID is a
test id as regrtest prints it (test.test_x.Class.test_y), optionally with fnmatch wildcards, or a
module-level entry (`test.test_x.Class.test_y [timed out]`).
"""
import fnmatch
import re
from dataclasses import dataclass

DOMAINS = ("filesystem_read", "filesystem_write", "network_egress", "name_resolution", "syscall",
           "process_creation", "ipc", "credential", "resource")
LINE = re.compile(r"^(\S+(?: \[[^\]]+\])?)\s+(" + "|".join(DOMAINS) + r"): (\S.*)$")


class ListError(ValueError):
    pass


@dataclass(frozen=True)
class Expected:
    pattern: str
    domain: str
    reason: str

    def matches(self, test):
        return fnmatch.fnmatchcase(test, self.pattern)


def load_list(path, parse_line):
    """Non-blank, non-comment lines parsed one by one; every bad line is named (file:line)."""
    entries, problems = [], []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                entries.append(parse_line(line))
            except ValueError as e:
                problems.append(f"{path}:{n}: {e}")
    if problems:
        raise ListError("\n".join(problems))
    return entries


def parse_expected(line):
    m = LINE.match(line)
    if not m:
        raise ValueError(f"expected 'TEST_ID  DOMAIN: reason' with DOMAIN one of {', '.join(DOMAINS)}: {line!r}")
    return Expected(m.group(1), m.group(2), m.group(3))


def load_expected(path):
    return load_list(path, parse_expected)


@dataclass
class Comparison:
    mode: str
    only_confined: dict      # test id -> the Expected entry explaining it, or None
    only_unconfined: set
    expected_unseen: list    # entries in scope that did not differ this time
    skipped_only_confined: set = frozenset()    # reported, never a verdict: see docs/compatibility.md
    skipped_only_unconfined: set = frozenset()

    @property
    def unexplained(self):
        return sorted(t for t, e in self.only_confined.items() if e is None)

    @property
    def equal(self):
        return not self.unexplained and not self.only_unconfined


def explain(test, expected):
    return next((e for e in expected if e.matches(test)), None)


def compare(mode, unconfined, confined, expected, in_scope=lambda pattern: True, skips=(set(), set())):
    """Both directions count: a test failing only unconfined is a difference as well.

    skips: (skipped unconfined, skipped confined); a test that skips in one mode only is reported, not judged
    (a skip is the test's own decision about its environment, e.g. no /dev/vsock in the view).
    """
    only_confined = {t: explain(t, expected) for t in sorted(confined - unconfined)}
    used = {e for e in only_confined.values() if e is not None}
    unseen = [e for e in expected if e not in used and in_scope(e.pattern)]
    return Comparison(mode, only_confined, set(unconfined - confined), unseen, set(skips[1] - skips[0]),
                      set(skips[0] - skips[1]))
