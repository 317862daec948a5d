import os
import tempfile
import unittest

from regrcompat import compare


class CompareTest(unittest.TestCase):
    EXPECTED = [compare.Expected("test.test_a.T.test_udp*", "network_egress", "no route out"),
                compare.Expected("test.test_a.T.test_gone", "filesystem_read", "outside the grants")]

    def test_confined_only_failures_are_explained_or_not(self):
        c = compare.compare("cold", {"test.test_a.T.test_both"},
                            {"test.test_a.T.test_both", "test.test_a.T.test_udp_send", "test.test_a.T.test_new"},
                            self.EXPECTED)
        self.assertEqual(["test.test_a.T.test_new"], c.unexplained)
        self.assertEqual("network_egress", c.only_confined["test.test_a.T.test_udp_send"].domain)
        self.assertEqual(["test.test_a.T.test_gone"], [e.pattern for e in c.expected_unseen])
        self.assertFalse(c.equal)

    def test_a_test_failing_only_unconfined_is_a_difference_too(self):
        c = compare.compare("cold", {"test.test_a.T.test_x"}, set(), [])
        self.assertEqual({"test.test_a.T.test_x"}, c.only_unconfined)
        self.assertFalse(c.equal)

    def test_equal_sets_with_expected_differences_are_equal(self):
        c = compare.compare("resident", set(), {"test.test_a.T.test_udp_recv"}, self.EXPECTED)
        self.assertTrue(c.equal)


class ExpectedListTest(unittest.TestCase):
    def load(self, text):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "e.txt")
            with open(path, "w") as f:
                f.write(text)
            return compare.load_expected(path)

    def test_each_line_names_a_domain_and_a_reason(self):
        got = self.load("# comment\n\ntest.test_a.T.test_x  syscall: ptrace is denied\n"
                        "test.test_b.T.test_y [timed out]  resource: memory ceiling\n")
        self.assertEqual([("test.test_a.T.test_x", "syscall"), ("test.test_b.T.test_y [timed out]", "resource")],
                         [(e.pattern, e.domain) for e in got])

    def test_a_line_without_a_domain_is_refused_with_its_line_number(self):
        with self.assertRaises(compare.ListError) as e:
            self.load("test.test_a.T.test_x  flaky on CI\n")
        self.assertIn("e.txt:1:", str(e.exception))


if __name__ == "__main__":
    unittest.main()
