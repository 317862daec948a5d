"""Self-tests of amendment 5's parts that need no launch: parsing /proc and the boot jar's timing lines, the
throughput summary, the report sections, and the arms' wiring (launchers that exist, the CLI arms kept cold)."""
import json, os, tempfile, unittest

from harness import coldstart, main, report, report_launch, resident, throughput

STAT = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 123 456 789"


class ProcParsingTest(unittest.TestCase):
    def test_cpu_counts_utime_and_stime_after_a_name_with_spaces_and_parentheses(self):
        self.assertAlmostEqual(resident.cpu_ms(STAT), 300 * 1000.0 / resident.CLK_TCK)

    def test_status_fields(self):
        text = "Name:\tjava\nVmHWM:\t  90000 kB\nVmRSS:\t  65536 kB\nThreads:\t23\n"
        self.assertEqual(resident.status_kib(text, "VmRSS"), 65536)
        self.assertEqual(resident.status_kib(text, "Threads"), 23)
        self.assertIsNone(resident.status_kib(text, "VmSwap"))

    def test_pid_of_daemon_status(self):
        self.assertEqual(resident.pid_of("aasm daemon: started, running pid=811 uptime=0s connections=0 socket=/r/s"),
                         811)
        self.assertIsNone(resident.pid_of("aasm daemon: the resident kernel did not come up"))

    def test_served_counts_accepted_run_requests_only(self):
        with tempfile.TemporaryDirectory() as d:
            k = resident.ResidentKernel("/bin/false", {}, d, os.path.join(d, "log"))
            with open(os.path.join(d, "aasm-requests.log"), "w") as f:
                f.write('{"event":"accepted","kind":"R","status":0}\n{"event":"accepted","kind":"Q"}\n'
                        '{"event":"refused","reason":"max_connections"}\n')
            with open(os.path.join(d, "aasm-requests.log.1"), "w") as f:
                f.write('{"event":"accepted","kind":"R","status":1}\n')
            self.assertEqual(k.served(), 2)


class TimingTest(unittest.TestCase):
    TEXT = ("aasm: timing: process start -> main    180 ms\nreport line\naasm: timing: framework init   40 ms\n"
            "aasm: timing:   start io.aasm.kernel                    12 ms\naasm: timing: command   90 ms\n")

    def test_parse_keeps_order_and_bundle_lines(self):
        self.assertEqual(coldstart.parse_timing(self.TEXT),
                         [("process start -> main", 180), ("framework init", 40), ("start io.aasm.kernel", 12),
                          ("command", 90)])

    def test_merge_takes_medians_and_counts_runs(self):
        runs = [[("a", 10), ("b", 5)], [("a", 30)], [("a", 20), ("b", 7)]]
        self.assertEqual(coldstart.merge(runs), [{"phase": "a", "ms_median": 20, "runs": 3},
                                                 {"phase": "b", "ms_median": 6.0, "runs": 2}])

    def test_cold_figures_skip_failed_samples(self):
        s = [{"rc": 0, "wall_ms": 900.0, "utime_s": 1.0, "stime_s": 0.2},
             {"rc": 0, "wall_ms": 1100.0, "utime_s": 1.2, "stime_s": 0.2},
             {"rc": 125, "wall_ms": 50.0, "utime_s": 0.0, "stime_s": 0.0}]
        f = coldstart.from_samples(s)
        self.assertEqual((f["n"], f["wall_ms_median"]), (2, 1000.0))
        self.assertAlmostEqual(f["cpu_ms_median"], 1300.0)
        self.assertIsNone(coldstart.from_samples([s[2]]))


def level(c, n, wall, failed=0, cpu=None):
    r = {"concurrency": c, "launches": n, "failed": failed, "wall_s": wall, "per_s": n / wall,
         "latencies_ms": [10.0 * (i + 1) for i in range(n)]}
    if cpu is not None:
        r.update(kernel_cpu_ms=cpu, kernel_memory={"rss_mib": 90.0, "hwm_mib": 120.0, "threads": 40})
    return r


class ThroughputTest(unittest.TestCase):
    def test_median_rate_over_rounds_and_failures_summed(self):
        s = throughput.summarise({"bwrap": [level(8, 32, 1.0), level(8, 32, 2.0, failed=1), level(8, 32, 4.0)]})
        f = s["bwrap"][8]
        self.assertEqual((f["rounds"], f["launches"], f["failed"]), (3, 96, 1))
        self.assertAlmostEqual(f["per_s_median"], 16.0)

    def test_kernel_cpu_per_launch_is_total_over_launches(self):
        s = throughput.summarise({"resident": [level(1, 32, 1.0, cpu=64.0), level(1, 32, 1.0, cpu=128.0)]})
        self.assertAlmostEqual(s["resident"][1]["kernel_cpu_ms_per_launch"], 3.0)
        self.assertEqual(s["resident"][1]["kernel_hwm_mib"], 120.0)

    def test_p95_is_nearest_rank(self):
        self.assertEqual(throughput._p95(list(range(1, 101))), 95)
        self.assertEqual(throughput._p95([7.0]), 7.0)
        self.assertIsNone(throughput._p95([]))

    def test_cold_arms_get_fewer_launches_and_every_level_at_least_its_concurrency(self):
        self.assertEqual(throughput.launches_for("native-cli", 32, "full"), 32)
        self.assertEqual(throughput.launches_for("native-cli", 1, "full"), 8)
        self.assertEqual(throughput.launches_for("bwrap", 32, "full"), 128)
        self.assertEqual(throughput.LEVELS["full"], (1, 8, 32))

    def test_a_real_level_counts_every_launch_and_failure(self):
        class Arm:  # the real LauncherArm surface: launcher, env, workload_env, cwd
            launcher, env, workload_env, cwd = "/bin/sh", dict(os.environ), {}, "/"
        with tempfile.NamedTemporaryFile() as log:
            ok = throughput.run_level(Arm, ["-c", "exit 0"], 4, 12, log.name)
            bad = throughput.run_level(Arm, ["-c", "exit 3"], 2, 4, log.name)
        self.assertEqual((ok["launches"], ok["failed"], len(ok["latencies_ms"])), (12, 0, 12))
        self.assertEqual(bad["failed"], 4)  # the control: same level, a launcher that fails


class ReportTest(unittest.TestCase):
    def test_sections_survive_a_json_round_trip(self):
        tp = throughput.summarise({"resident": [level(8, 32, 1.0, cpu=96.0)], "bwrap": [level(8, 32, 2.0)]})
        res = json.loads(json.dumps({
            "throughput": tp, "throughput_not_run": {"native-api": "sequential driver"},
            "cold_start": {"measured": True, "command": "x", "wall_ms_median": 950.0, "wall_ms_q1": 900.0,
                           "wall_ms_q3": 990.0, "n": 10, "cpu_ms_median": 1400.0, "unconfined_wall_ms_median": 2.0,
                           "goal_ms": 400.0, "phases": [{"phase": "command", "ms_median": 90, "runs": 5}]},
            "resident_kernel": {"idle": {"rss_mib": 97.0, "hwm_mib": 99.0, "threads": 30}}}))
        text = "\n".join(report_launch.sections(res))
        self.assertIn("resident vs bwrap at 8 clients: 2.00x", text)
        self.assertIn("c=8: 3.00 ms", text)
        self.assertIn("median wall **950 ms**", text)
        self.assertIn("| native-api |", text)

    def test_kernel_memory_rows_show_anonymous_and_pss_where_measured(self):
        text = "\n".join(report_launch.sections({"resident_kernel": {
            "idle": {"rss_mib": 80.0, "hwm_mib": 82.0, "threads": 30, "anon_mib": 58.5, "pss_mib": 64.25},
            "older run": {"rss_mib": 90.0, "hwm_mib": 91.0, "threads": 31}}}))
        self.assertIn("| idle | 80.0 | 58.5 | 64.2 | 82.0 | 30 |", text)
        self.assertIn("| older run | 90.0 | – | – | 91.0 | 31 |", text)

    def test_memory_of_a_living_process_has_anonymous_and_pss(self):
        k = resident.ResidentKernel.__new__(resident.ResidentKernel)
        k.pid = os.getpid()
        m = k.memory()
        self.assertGreater(m["rss_mib"], 0)
        self.assertLessEqual(m["anon_mib"], m["rss_mib"])
        self.assertLessEqual(m["pss_mib"], m["rss_mib"])

    def test_absent_parts_say_why(self):
        text = "\n".join(report_launch.sections({"cold_start": {"measured": False, "reason": "native-cli arm absent"}}))
        self.assertIn("Not measured: native-cli arm absent.", text)
        self.assertIn("the resident arm is absent", text)


class WiringTest(unittest.TestCase):
    def test_new_launchers_exist_and_are_executable(self):
        for name in ("sandlock-direct.sh", "aasm-cli.sh"):
            path = os.path.join(main.BENCH_DIR, "launchers", name)
            self.assertTrue(os.access(path, os.X_OK), path)

    def test_every_new_arm_has_a_reading_order(self):
        for arm in ("resident", "sandlock-direct", "vm-cli"):
            self.assertIn(arm, report.ARM_ORDER)

    def test_vm_arm_is_absent_with_a_reason_without_the_bundle(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "bundle"))
            ok, why = __import__("harness.arms", fromlist=["vm_backend"]).vm_backend(d)
        self.assertFalse(ok)
        self.assertIn("aasm-qemu-vm", why)


if __name__ == "__main__":
    unittest.main()
