import os
import unittest

from regrcompat import compare, lists

COMPAT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CommittedListsTest(unittest.TestCase):
    """The lists compat/run reads are well formed (a bad line would only show up when the gate runs)."""

    def test_every_expected_difference_names_a_domain_and_a_reason(self):
        entries = compare.load_expected(os.path.join(COMPAT, "expected-differences.txt"))
        self.assertTrue(entries)
        self.assertTrue(all(e.reason and e.pattern.startswith("test.test_") for e in entries))

    def test_the_full_run_has_seventeen_modules(self):
        self.assertEqual(17, len(set(lists.read_lines("modules.txt"))))

    def test_the_gate_names_whole_test_ids(self):
        modules, patterns = lists.scope(True, False, None)
        self.assertTrue(modules and all(p.startswith("test.test_") for p in patterns))

    def test_every_ignored_pattern_has_a_reason(self):
        self.assertTrue(lists.ignored())


if __name__ == "__main__":
    unittest.main()
