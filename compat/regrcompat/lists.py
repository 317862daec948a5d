"""The committed lists under compat/: the 17 modules, the gate's patterns, the tests left out everywhere."""
import os

from . import compare

COMPAT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_lines(name):
    """The first word of every non-blank, non-comment line of compat/NAME."""
    return compare.load_list(os.path.join(COMPAT, name), lambda line: line.split()[0])


def ignored():
    """Tests left out of every mode (they cannot run unconfined on these hosts); each line has its reason."""
    def one(line):
        if len(line.split(None, 1)) < 2:
            raise ValueError(f"expected 'PATTERN  reason': {line!r}")
        return line.split()[0]
    return compare.load_list(os.path.join(COMPAT, "ignored.txt"), one)


def scope(gate, full, modules):
    """(modules to load, match patterns or None) for --gate, --full or --modules."""
    if gate:
        patterns = read_lines("gate.txt")
        bad = [p for p in patterns if not p.startswith("test.test_")]
        if bad:
            raise compare.ListError(f"compat/gate.txt: patterns must start with test.test_: {bad}")
        return sorted({p.split(".")[1] for p in patterns}), patterns
    if full:
        return read_lines("modules.txt"), None
    return [m.strip() for m in modules.split(",") if m.strip()], None
