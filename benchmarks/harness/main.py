"""benchmarks/run: --quick (CI smoke, never judges), --full (pre-registered rules), --self-test, --compare."""
import argparse, datetime, json, os, shutil, sys, tempfile, time, traceback

from . import armset, arms, coldstart, containers, env, report, rules, sampler, server, throughput, vmstages, workloads

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(BENCH_DIR)
DIST = os.path.join(REPO, "distribution", "target", "aasm-0.1.0-SNAPSHOT")
# arms with a T1 throughput sample (the unconfined one is its ProcessBuilder baseline)
WARM_ARMS = ("unconfined", "native-api", "sandlock-api", "container-api")


def parse(argv):
    p = argparse.ArgumentParser(prog="benchmarks/run", description=__doc__)
    m = p.add_mutually_exclusive_group(required=True)
    m.add_argument("--quick", action="store_true", help="CI smoke: 2 reps, tiny workloads, no judgement")
    m.add_argument("--full", action="store_true", help="the real benchmark (METHODOLOGY.md)")
    m.add_argument("--self-test", action="store_true", help="unit tests of the grading rules")
    m.add_argument("--compare", nargs=2, metavar="RESULTS_JSON", help="compare two results.json files")
    m.add_argument("--report", metavar="RESULTS_DIR", help="re-grade a results dir from its samples; rewrite outputs")
    p.add_argument("--allow-cross-env", action="store_true", help="compare across fingerprints (INVALID_CONTROL)")
    p.add_argument("--reps", type=int, help="kept repetitions (full default 10, quick 2)")
    p.add_argument("--warmup", type=int, help="warm-up repetitions (full default 2, quick 0)")
    p.add_argument("--arms", help="comma list of arm ids to run (default: all present)")
    p.add_argument("--out", help="results dir (default benchmarks/results/<UTC timestamp>)")
    p.add_argument("--aasm-home", default=DIST, help="distribution dir with bin/aasm (default: the build output)")
    return p.parse_args(argv)


def measure(present, driver, ws, port, reps, warmup):
    samples = {arm.id: {} for arm in present}
    direct = arms.DirectThroughput(driver, ws.scratch, ws.size["throughput"]) if driver else None
    order = [w for w in workloads.ORDER if w != "throughput" or driver]
    total = warmup + reps
    for rep in range(total):
        kept = rep >= warmup
        t0 = time.time()
        for wi, w in enumerate(order):
            argv = ws.argv(w, port)
            rot = (rep * len(order) + wi) % len(present)
            for arm in present[rot:] + present[:rot]:
                if w == "throughput" and arm.id not in WARM_ARMS or w in getattr(arm, "skip", ()):
                    continue
                try:
                    s = direct.sample(argv) if w == "throughput" and arm.id == "unconfined" else arm.sample(w, argv)
                except Exception as e:  # recorded as a failed sample (FAILED family), never dropped
                    s = {"wall_ms": None, "rc": 125, "rss_mib": None, "error": str(e)}
                if kept:
                    samples[arm.id].setdefault(w, []).append(s)
        print("repetition %d/%d %s (%.0f s, load %.2f)" % (rep + 1, total, "kept" if kept else "warm-up",
                                                            time.time() - t0, os.getloadavg()[0]), flush=True)
    return samples


def analyse(samples, min_reps):
    base = samples.get("unconfined", {})
    out = {}
    for arm_id, arm in samples.items():
        if arm_id == "unconfined":
            continue
        fams = {}
        for fam in rules.THRESHOLDS:
            if fam == "T1" and arm_id not in WARM_ARMS:
                fams[fam] = {"family": fam, "grade": rules.NA, "value": None, "workloads": []}
                continue
            fams[fam] = rules.grade_family(fam, arm, base, min_reps)
        verdict = rules.arm_verdict({f: r["grade"] for f, r in fams.items()})
        out[arm_id] = {"families": fams, "verdict": verdict}
    nc = out.get("negative-control")
    control = rules.negative_control(nc["families"]["P1"]) if nc else {"valid": False, "reason": "control absent"}
    return out, control


def main(argv=None):
    a = parse(sys.argv[1:] if argv is None else argv)
    if a.self_test:
        return _self_test()
    if a.compare:
        return report.compare(a.compare[0], a.compare[1], a.allow_cross_env)
    if a.report:
        return _rereport(a.report)
    mode = "quick" if a.quick else "full"
    reps = a.reps if a.reps is not None else (2 if a.quick else rules.MIN_KEPT_FULL)
    warmup = a.warmup if a.warmup is not None else (0 if a.quick else 2)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = os.path.abspath(a.out or os.path.join(BENCH_DIR, "results", stamp + ("-quick" if a.quick else "")))
    os.makedirs(out, exist_ok=True)
    priority = _raise_priority() if mode == "full" else "unchanged (quick mode)"
    root = tempfile.mkdtemp(prefix="aasm-bench-")
    srv = None
    driver = None
    kernel = None
    vm_kernel = None
    smp = None
    try:
        ws = workloads.Workspace(root, BENCH_DIR, mode)
        srv, port = server.start()
        policy = os.path.join(root, "bench-policy.yaml")
        policy_text = armset.render_policy(ws, port, policy)
        shutil.copyfile(policy, os.path.join(out, "bench-policy.yaml"))
        container_policy = os.path.join(root, "bench-policy-container.yaml")
        armset.render_container_policy(policy_text, container_policy)
        shutil.copyfile(container_policy, os.path.join(out, "bench-policy-container.yaml"))
        vm_policy = os.path.join(root, "bench-policy-vm.yaml")
        armset.render_container_policy(policy_text, vm_policy, "vm")
        shutil.copyfile(vm_policy, os.path.join(out, "bench-policy-vm.yaml"))
        log = os.path.join(out, "arms-stderr.log")
        print("aasm benchmarks, %s mode: %d warm-up + %d kept repetitions; results in %s" % (mode, warmup, reps, out))
        fp = env.fingerprint(ws.scratch, os.path.join(a.aasm_home, "bin", "aasm"), REPO, arms.sandlock(REPO)[0])
        load_before = env.load()
        helper = sampler.build_helper(root)
        smp = sampler.Sampler(helper)
        present, table, driver, kernel, vm_kernel = armset.build_arms(a, ws, port, policy, out, mode, log, smp, container_policy,
                                                              vm_policy)
        kernel_memory = {}
        if kernel and any(x.id == "resident" for x in present):
            time.sleep(2)
            kernel_memory["idle (after start and two launches)"] = kernel.memory()
        if not any(x.id == "unconfined" for x in present):
            print("harness error: the unconfined baseline does not run", file=sys.stderr)
            return 1
        t0 = time.time()
        samples = measure(present, driver, ws, port, reps, warmup)
        if kernel_memory:
            kernel_memory["after the families P1-P7"] = kernel.memory()
        cold = coldstart.report(samples, present, ws.argv("startup_nop", port), mode)
        vm_arm = next((x for x in present if x.id == "vm-resident"), None)
        base = next(x for x in present if x.id == "unconfined")
        # issue 15: the VM's added time paired with unconfined, and where it goes (the kernel's stage traces)
        vm_stages = vmstages.measure(vm_arm, base, ["/bin/true"], mode, vm_arm.stages_file) if vm_arm else None
        tp = throughput.summarise(throughput.measure(present, ["/bin/true"], mode, log,
                                                     kernel if kernel_memory else None))
        if kernel_memory:
            kernel_memory["after the throughput family"] = kernel.memory()
        memory = containers.memory_per_container(present, ws, 1 if mode == "quick" else 5)
        min_reps = rules.MIN_KEPT_FULL if mode == "full" else reps
        graded, control = analyse(samples, min_reps)
        result = {
            "schema": "aasm.bench.results/1", "mode": mode, "judged": mode == "full",
            "started_utc": stamp, "duration_s": round(time.time() - t0, 1),
            "repetitions": {"warmup": warmup, "kept": reps}, "fingerprint": fp, "priority": priority,
            "load_average": {"before": load_before, "after": env.load()},
            "arms": table, "policy": policy_text,
            "rss_source": "rusage-exec helper (wait4 of a ~1 MiB parent)" if helper else
            "harness wait4 (floor: the harness's own resident set; no C compiler found)", "workload_sizes": ws.size,
            "samples": samples, "grades": graded, "negative_control": control, "container_memory": memory,
            "throughput": tp, "throughput_not_run": {k: v for k, v in throughput.NOT_RUN.items()
                                                     if any(x.id == k for x in present)},
            "cold_start": cold, "resident_kernel": kernel_memory or None, "vm_stages": vm_stages,
            "control_validity": "VALID" if control["valid"] else "INVALID",
        }
        if mode == "quick":
            # the pipeline ran end to end; performance is not judged in CI
            result["control_validity"] = None
            result["negative_control"]["wiring"] = _wiring(samples)
            for g in graded.values():
                g["verdict"] = None
        charts = report.charts(result, os.path.join(out, "charts"), required=(mode == "full"))
        result["charts"] = charts
        with open(os.path.join(out, "results.json"), "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
        with open(os.path.join(out, "summary.md"), "w") as f:
            f.write(report.summary(result))
        print(report.verdict_text(result))
        if mode == "quick":
            wiring = result["negative_control"]["wiring"]
            if not wiring["ok"]:
                print("harness error: negative-control wiring broken: %s" % wiring["reason"], file=sys.stderr)
                return 1
            return 0
        return 0 if control["valid"] else 3
    except report.ChartsRequired as e:
        print("harness error: %s" % e, file=sys.stderr)
        return 1
    finally:
        if driver:
            driver.close()
        if kernel:
            kernel.stop()
        if vm_kernel:
            vm_kernel.stop()
        if srv:
            srv.shutdown()
        if smp:
            smp.close()  # its RSS file lives in the system temp dir, not under root
        shutil.rmtree(root, ignore_errors=True)


def _rereport(out):
    """Grades are a pure function of the samples: recompute them and rewrite summary.md and the charts."""
    with open(os.path.join(out, "results.json")) as f:
        result = json.load(f)
    if result["mode"] == "full":
        graded, control = analyse(result["samples"], rules.MIN_KEPT_FULL)
        result.update(grades=graded, negative_control=control,
                      control_validity="VALID" if control["valid"] else "INVALID")
    result["charts"] = report.charts(result, os.path.join(out, "charts"), required=(result["mode"] == "full"))
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(report.summary(result))
    print(report.verdict_text(result))
    return 0 if result["mode"] == "quick" or result["control_validity"] == "VALID" else 3


def _raise_priority():
    """METHODOLOGY.md amendment 1: nice -10 for the harness and, by inheritance, every arm alike."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -10)
        return "nice %d" % os.getpriority(os.PRIO_PROCESS, 0)
    except OSError as e:
        return "nice %d (raising refused: %s)" % (os.getpriority(os.PRIO_PROCESS, 0), e.strerror)


def _wiring(samples):
    """Quick mode: the control ran and its delay is visible in the raw numbers (no grading)."""
    nc = samples.get("negative-control", {}).get("startup_nop", [])
    un = samples.get("unconfined", {}).get("startup_nop", [])
    if not nc or not un:
        return {"ok": False, "reason": "control or baseline produced no startup samples"}
    if any(s["rc"] != 0 for s in nc):
        return {"ok": False, "reason": "control samples exited non-zero"}
    gap = min(s["wall_ms"] for s in nc) - max(s["wall_ms"] for s in un)
    return {"ok": gap > 0, "reason": "control slower than baseline by >= %.1f ms" % gap if gap > 0
            else "control not slower than baseline: injected delay not visible", "min_gap_ms": gap}


def _self_test():
    import unittest
    suite = unittest.defaultTestLoader.discover(os.path.join(BENCH_DIR, "tests"), top_level_dir=BENCH_DIR)
    res = unittest.TextTestRunner(verbosity=2).run(suite)
    return 0 if res.wasSuccessful() else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception:
        traceback.print_exc()
        sys.exit(1)
