"""Self-tests of the vm-resident arm's stage report (issue 15) without a guest: trace lines to stage durations,
the paired added time, the summary section, and the arm's wiring (reading order, fewer throughput launches)."""
import json, os, tempfile, unittest

from harness import report, throughput, vmstages

LINE = json.dumps({"accept": 0, "request_read": 300, "vm_prepare": 20000, "vm_spawn": 35000, "vm_connect": 95000,
                   "vm_migrate": 160000, "vm_resume": 161000, "vm_plan": 162000, "vm_started": 330000,
                   "vm_exit": 345000, "vm_teardown": 375000, "status_sent": 380000})


class DurationsTest(unittest.TestCase):
    def test_each_stage_is_its_mark_minus_the_previous_mark(self):
        d = vmstages.durations(LINE)
        self.assertEqual(d["accept"], 0.0)
        self.assertEqual(d["vm_connect"], 60.0)
        self.assertEqual(d["vm_started"], 168.0)
        self.assertEqual(d["_total"], 380.0)
        self.assertEqual([k for k in d if k != "_total"][:4], ["accept", "request_read", "vm_prepare", "vm_spawn"])

    def test_marks_out_of_order_in_the_line_are_sorted_by_time(self):
        d = vmstages.durations('{"accept":0,"vm_exit":50000,"vm_started":20000}')
        self.assertEqual(list(d)[:3], ["accept", "vm_started", "vm_exit"])
        self.assertEqual(d["vm_exit"], 30.0)

    def test_only_vm_launch_traces_are_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "stages.jsonl")
            with open(path, "w") as f:
                f.write('{"accept":0,"caller_check":100}\n' + LINE + "\n")
            self.assertEqual(vmstages.read_traces(path), [LINE])
            self.assertEqual(vmstages.read_traces(os.path.join(tmp, "absent")), [])


class SummaryTest(unittest.TestCase):
    def test_added_time_is_per_pair_and_the_goal_is_judged_on_its_median(self):
        traces = [vmstages.durations(LINE)] * 3
        vs = vmstages.summarise([(400.0, 2.0), (600.0, 3.0), (450.0, 1.0)], traces, [3.0, 5.0, 4.0], 0, 3)
        self.assertTrue(vs["measured"])
        self.assertEqual(vs["added_ms_median"], 449.0)
        self.assertEqual(vs["load"], [3.0, 5.0])
        self.assertEqual(vs["kernel_ms_median"], 380.0)
        self.assertEqual(vs["client_ms_median"], 70.0)
        text = "\n".join(vmstages.section(vs))
        self.assertIn("added 449 ms", text)
        self.assertIn("(met at this load)", text)
        self.assertIn("| vm_started | 168.0", text)
        self.assertNotIn("| request_read |", text)  # a kernel stage under 0.5 ms

    def test_over_the_goal_is_said_and_no_pair_is_not_measured(self):
        vs = vmstages.summarise([(900.0, 2.0)], [], [9.0], 1, 2)
        self.assertIn("NOT met", "\n".join(vmstages.section(vs)))
        self.assertFalse(vmstages.summarise([], [], [1.0], 2, 2)["measured"])
        self.assertIn("Not measured", "\n".join(vmstages.section(None)))


class VmResidentWiringTest(unittest.TestCase):
    def test_arm_has_a_reading_order_and_the_cold_arms_launch_counts(self):
        self.assertIn("vm-resident", report.ARM_ORDER)
        self.assertEqual(throughput.launches_for("vm-resident", 32, "full"), 32)
        self.assertEqual(throughput.launches_for("resident", 32, "full"), 128)

    def test_every_vm_stage_says_what_it_covers(self):
        for stage in ("vm_prepare", "vm_spawn", "vm_connect", "vm_migrate", "vm_resume", "vm_plan", "vm_started",
                      "vm_exit", "vm_teardown"):
            self.assertTrue(vmstages.VM_STAGES[stage])


if __name__ == "__main__":
    unittest.main()
