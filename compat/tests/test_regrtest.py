import unittest

from regrcompat import regrtest

# Shapes copied from real `python3.11 -m test -v -j1` output (libpython3.11-testsuite 3.11.2).
LOG = """\
== CPython 3.11.2 (main) [GCC 12.2.0]
0:00:00 load avg: 3.21 Run tests in parallel using 1 child processes
0:00:01 load avg: 3.21 [1/4/1] test_a failed (1 error, 2 failures)
test_err (test.test_a.T.test_err) ... ERROR
test_fail (test.test_a.T.test_fail) ... FAIL
test_ok (test.test_a.T.test_ok) ... ok
test_sub (test.test_a.T.test_sub) ... 
  test_sub (test.test_a.T.test_sub) (i=1) ... FAIL
======================================================================
ERROR: test_err (test.test_a.T.test_err)
FAIL: test_fail (test.test_a.T.test_fail)
FAIL: test_sub (test.test_a.T.test_sub) (i=1)
ERROR: setUpClass (test.test_a.U)
0:00:02 load avg: 3.21 [2/4/1] test_b passed
test_x (test.test_b.T.test_x) ... ok
0:07:32 load avg: 3.21 [3/4/2] test_c timed out (7 min 30 sec)
test_y (test.test_c.T.test_y) ... ok
test_hang (test.test_c.T.test_hang) ... 
Timeout (0:05:00)!
0:07:33 load avg: 3.21 [4/4/2] test_d skipped (resource denied)
test_d skipped -- Use of the 'network' resource not enabled
"""


class ParseLogTest(unittest.TestCase):
    def setUp(self):
        self.r = regrtest.parse_log(LOG, ["test_a", "test_b", "test_c", "test_d", "test_e"])

    def test_failures_and_subtests_are_named_by_test_id(self):
        self.assertEqual({"test.test_a.T.test_err", "test.test_a.T.test_fail", "test.test_a.T.test_sub",
                          "test.test_a.U.setUpClass"}, self.r["test_a"].failing)
        self.assertEqual("failed", self.r["test_a"].status)

    def test_a_passing_module_has_no_failure(self):
        self.assertEqual(set(), self.r["test_b"].failing)
        self.assertEqual("passed", self.r["test_b"].status)

    def test_a_hung_module_names_the_test_that_was_running(self):
        self.assertEqual("timed out", self.r["test_c"].status)
        self.assertEqual({"test.test_c.T.test_hang [timed out]"}, self.r["test_c"].failing)

    def test_skipped_module_is_no_failure_and_a_missing_one_is_not_run(self):
        self.assertEqual(("skipped", set()), (self.r["test_d"].status, self.r["test_d"].failing))
        self.assertEqual("not run", self.r["test_e"].status)

    def test_a_failed_module_without_summary_is_named_itself(self):
        r = regrtest.parse_log("0:00:01 [1/1/1] test_z failed (uncaught exception)\n", ["test_z"])
        self.assertEqual({"test.test_z [failed]"}, r["test_z"].failing)


class CountsTest(unittest.TestCase):
    def test_tests_and_skips_come_from_unittests_own_lines(self):
        log = ("0:00:01 [1/2] test_a passed\nRan 12 tests in 0.1s\n\nOK (skipped=3)\n"
               "0:00:02 [2/2/1] test_b failed (1 failure)\nFAIL: test_x (test.test_b.T.test_x)\n"
               "Ran 4 tests in 0.1s\n\nFAILED (failures=1)\n")
        r = regrtest.parse_log(log, ["test_a", "test_b"])
        self.assertEqual((12, 3), (r["test_a"].tests, r["test_a"].skipped))
        self.assertEqual((4, 0), (r["test_b"].tests, r["test_b"].skipped))

    def test_skipped_tests_are_named_also_after_a_docstring(self):
        log = ("0:00:01 [1/1] test_a passed\ntest_x (test.test_a.T.test_x) ... skipped 'no vsock'\n"
               "test_y (test.test_a.T.test_y)\nDocstring of y. ... skipped 'not root'\n"
               "test_z (test.test_a.T.test_z) ... ok\n")
        r = regrtest.parse_log(log, ["test_a"])
        self.assertEqual({"test.test_a.T.test_x", "test.test_a.T.test_y"}, r["test_a"].skipped_ids)

    def test_argv_runs_one_worker_verbose_with_a_timeout(self):
        a = regrtest.argv(["test_a"], ["Pat"], "/w/m.txt", 60)
        self.assertEqual([regrtest.PYTHON, "-m", "test", "-v", "-j1", "--timeout", "60", "-i", "Pat",
                          "--matchfile", "/w/m.txt", "test_a"], a)


if __name__ == "__main__":
    unittest.main()
