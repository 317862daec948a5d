"""Self-tests of the pre-registered rules on synthetic samples (benchmarks/run --self-test)."""
import contextlib, io, json, os, random, sys, tempfile, unittest

from harness import main, report, rules


def series(median, spread=0.02, n=10, rc=0, metric="wall_ms", seed=1):
    rnd = random.Random(seed)
    return [{"wall_ms" if metric == "wall_ms" else metric: median * (1 + rnd.uniform(-spread, spread)), "rc": rc,
             "rss_mib": 2.0} for _ in range(n)]


def arm(startup, **workloads):
    out = {"startup_nop": series(startup)}
    out.update({k: series(v, seed=len(k)) for k, v in workloads.items()})
    return out


class ThresholdTest(unittest.TestCase):
    def test_added_ms_bounds_are_inclusive(self):
        self.assertEqual(rules.colour("P1", 50.0), rules.GREEN)
        self.assertEqual(rules.colour("P1", 50.01), rules.AMBER)
        self.assertEqual(rules.colour("P1", 250.0), rules.AMBER)
        self.assertEqual(rules.colour("P1", 250.01), rules.RED)

    def test_ratio_bounds_per_family(self):
        self.assertEqual(rules.colour("P7", 1.05), rules.GREEN)
        self.assertEqual(rules.colour("P7", 1.21), rules.RED)
        self.assertEqual(rules.colour("P3", 1.49), rules.AMBER)
        self.assertEqual(rules.colour("T1", 10.5), rules.RED)

    def test_thresholds_match_the_methodology_table(self):
        text = open(os.path.join(main.BENCH_DIR, "METHODOLOGY.md")).read()
        for row in ("| P1 startup, added ms | ≤ 50 | ≤ 250 | > 250 |", "| P2 general | ≤ 1.05 | ≤ 1.25 | > 1.25 |",
                    "| P3 filesystem | ≤ 1.10 | ≤ 1.50 | > 1.50 |", "| P4 process | ≤ 1.10 | ≤ 1.50 | > 1.50 |",
                    "| P5 network | ≤ 1.10 | ≤ 1.50 | > 1.50 |", "| P6 peak RSS, added MiB | ≤ 32 | ≤ 128 | > 128 |",
                    "| P7 CPU | ≤ 1.05 | ≤ 1.20 | > 1.20 |",
                    "| T1 throughput (per-launch time ratio) | ≤ 2.0 | ≤ 10.0 | > 10.0 |"):
            self.assertIn(row, text)


class AdmissibilityTest(unittest.TestCase):
    def test_tight_series_is_admissible(self):
        ok, _ = rules.admissible(series(100, 0.05), "P2", 10)
        self.assertTrue(ok)

    def test_wide_series_is_not(self):
        ok, why = rules.admissible(series(100, 0.6), "P2", 10)
        self.assertFalse(ok)
        self.assertIn("relative IQR", why)

    def test_too_few_repetitions(self):
        ok, why = rules.admissible(series(100, n=9), "P2", 10)
        self.assertFalse(ok)
        self.assertIn("9 kept", why)

    def test_non_zero_exit_is_not_admissible(self):
        s = series(100)
        s[3]["rc"] = 1
        self.assertFalse(rules.admissible(s, "P2", 10)[0])

    def test_small_absolute_spread_admits_added_families_only(self):
        s = series(2.0, 0.5)  # 50 % relative spread, but a fraction of a millisecond
        self.assertTrue(rules.admissible(s, "P1", 10)[0])
        self.assertFalse(rules.admissible(s, "P2", 10)[0])


class GradingTest(unittest.TestCase):
    def test_steady_state_removes_launch_cost(self):
        base = arm(10, cpu_loop=1010)
        confined = arm(210, cpu_loop=1210)  # +200 ms launch, identical steady state
        r = rules.grade_family("P7", confined, base, 10)
        self.assertEqual(r["grade"], rules.GREEN)
        self.assertAlmostEqual(r["value"], 1.0, delta=0.03)
        self.assertGreater(r["workloads"][0]["total_ratio"], 1.15)

    def test_steady_state_slowdown_is_red(self):
        r = rules.grade_family("P7", arm(10, cpu_loop=1510), arm(10, cpu_loop=1010), 10)
        self.assertEqual(r["grade"], rules.RED)

    def test_family_takes_its_worst_workload(self):
        base = arm(10, repo_traversal=110, many_small_files=110)
        confined = arm(10, repo_traversal=110, many_small_files=140)
        r = rules.grade_family("P3", confined, base, 10)
        self.assertEqual(r["grade"], rules.AMBER)
        self.assertAlmostEqual(r["value"], 1.3, delta=0.05)

    def test_failed_arm_is_failed_not_dropped(self):
        base = arm(10, cpu_loop=1000)
        confined = arm(10)
        confined["cpu_loop"] = series(1000, rc=125)
        self.assertEqual(rules.grade_family("P7", confined, base, 10)["grade"], rules.FAILED)

    def test_a_launch_error_is_failed_even_without_a_time(self):
        confined = arm(10, cpu_loop=1000)
        confined["cpu_loop"][0] = {"wall_ms": None, "rc": 125, "rss_mib": None, "error": "driver died"}
        self.assertEqual(rules.grade_family("P7", confined, arm(10, cpu_loop=1000), 10)["grade"], rules.FAILED)

    def test_unstable_baseline_blocks_the_grade(self):
        base = arm(10)
        base["cpu_loop"] = series(1000, 0.8)
        self.assertEqual(rules.grade_family("P7", arm(10, cpu_loop=1000), base, 10)["grade"], rules.UNSTABLE)

    def test_unstable_keeps_an_ungraded_point_value_only(self):
        confined = arm(10)
        confined["cpu_loop"] = series(2000, 0.8)
        r = rules.grade_family("P7", confined, arm(10, cpu_loop=1000), 10)
        self.assertEqual(r["grade"], rules.UNSTABLE)
        self.assertIsNone(r["value"])
        self.assertGreater(r["ungraded_value"], 1.2)
        self.assertEqual(rules.arm_verdict({"P7": r["grade"]}), "INCONCLUSIVE")

    def test_unmeasurable_metric_is_not_measured(self):
        confined = arm(10)
        for s in confined["startup_nop"]:
            s["rss_mib"] = None
        self.assertEqual(rules.grade_family("P6", confined, arm(10), 10)["grade"], rules.NOT_MEASURED)


class VerdictTest(unittest.TestCase):
    def test_red_wins(self):
        self.assertEqual(rules.arm_verdict({"P1": "GREEN", "P2": "RED", "P3": "UNSTABLE"}), "RED")

    def test_unstable_without_red_is_inconclusive(self):
        self.assertEqual(rules.arm_verdict({"P1": "GREEN", "P2": "UNSTABLE"}), "INCONCLUSIVE")

    def test_not_measured_does_not_count(self):
        self.assertEqual(rules.arm_verdict({"P1": "AMBER", "P6": "NOT_MEASURED", "T1": "n/a"}), "AMBER")
        self.assertEqual(rules.arm_verdict({"P1": "GREEN", "P2": "GREEN"}), "GREEN")

    def test_all_failed_is_failed(self):
        self.assertEqual(rules.arm_verdict({"P1": "FAILED", "P2": "FAILED", "T1": "n/a"}), "FAILED")


class NegativeControlTest(unittest.TestCase):
    def grade(self, base_ms, control_ms, spread=0.02):
        base = {"startup_nop": series(base_ms)}
        control = {"startup_nop": series(control_ms, spread, seed=9)}
        return rules.negative_control(rules.grade_family("P1", control, base, 10))

    def test_injected_delay_is_detected(self):
        r = self.grade(3.0, 503.0)
        self.assertTrue(r["valid"], r["reason"])
        self.assertAlmostEqual(r["recovered_ms"], 500, delta=20)

    def test_delay_not_graded_red_invalidates_the_run(self):
        r = self.grade(3.0, 203.0)
        self.assertFalse(r["valid"])
        self.assertIn("not RED", r["reason"])

    def test_delay_outside_tolerance_invalidates_the_run(self):
        r = self.grade(3.0, 803.0)
        self.assertFalse(r["valid"])
        self.assertIn("outside", r["reason"])

    def test_unstable_control_invalidates_the_run(self):
        self.assertFalse(self.grade(3.0, 503.0, spread=0.9)["valid"])

    def test_quick_mode_wiring_sees_the_delay_without_grading(self):
        ok = main._wiring({"unconfined": {"startup_nop": series(3, n=2)},
                           "negative-control": {"startup_nop": series(503, n=2)}})
        self.assertTrue(ok["ok"])
        broken = main._wiring({"unconfined": {"startup_nop": series(3, n=2)},
                               "negative-control": {"startup_nop": series(3, n=2)}})
        self.assertFalse(broken["ok"])


FP = {k: "x" for k in rules.FINGERPRINT_KEYS}


def result(fp):
    fams = {f: {"family": f, "grade": "GREEN", "value": 1.0, "workloads": []} for f in rules.THRESHOLDS}
    return {"fingerprint": fp, "grades": {"native-cli": {"families": fams, "verdict": "GREEN"}}}


class FingerprintTest(unittest.TestCase):
    def compare(self, fa, fb, allow):
        with tempfile.TemporaryDirectory() as d:
            pa, pb = os.path.join(d, "a.json"), os.path.join(d, "b.json")
            json.dump(result(fa), open(pa, "w"))
            json.dump(result(fb), open(pb, "w"))
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                rc = report.compare(pa, pb, allow)
            return rc, buf.getvalue()

    def test_same_fingerprint_compares(self):
        rc, text = self.compare(FP, dict(FP), False)
        self.assertEqual(rc, 0)
        self.assertIn("control_validity: VALID", text)

    def test_different_kernel_refuses(self):
        rc, text = self.compare(FP, dict(FP, kernel="y"), False)
        self.assertEqual(rc, 4)
        self.assertIn("refused", text)
        self.assertIn("kernel", text)

    def test_cross_env_is_stamped_invalid(self):
        rc, text = self.compare(FP, dict(FP, landlock_abi=6), True)
        self.assertEqual(rc, 0)
        self.assertIn("INVALID_CONTROL", text)
        self.assertIn("verdict: null", text)


class ChartsTest(unittest.TestCase):
    def test_missing_matplotlib_is_skipped_in_quick_and_refused_in_full(self):
        saved = sys.modules.get("matplotlib")
        sys.modules["matplotlib"] = None  # makes `import matplotlib` raise ImportError
        try:
            with tempfile.TemporaryDirectory() as d:
                res = dict(result(FP), judged=False)
                self.assertIn("skipped", report.charts(res, d, required=False)["note"])
                with self.assertRaises(report.ChartsRequired):
                    report.charts(res, d, required=True)
        finally:
            if saved is None:
                del sys.modules["matplotlib"]
            else:
                sys.modules["matplotlib"] = saved


if __name__ == "__main__":
    unittest.main()
