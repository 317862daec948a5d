"""benchmarks/run: --quick (CI smoke, never judges), --full (pre-registered rules), --self-test, --compare."""
import argparse, datetime, json, os, shutil, sys, tempfile, time, traceback

from . import arms, coldstart, containers, env, report, resident, rules, sampler, server, throughput, warm, workloads

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(BENCH_DIR)
DIST = os.path.join(REPO, "distribution", "target", "aasm-0.1.0-SNAPSHOT")
SYSTEM_READ = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/proc", "/dev"]
# arms with a T1 throughput sample (the unconfined one is its ProcessBuilder baseline)
WARM_ARMS = ("unconfined", "native-api", "sandlock-api", "container-api")
# METHODOLOGY.md amendment 3: the container arms have no egress path, so no P5 workload
NO_EGRESS = ("tcp_loopback",)


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


def render_policy(ws, port, path):
    read = list(SYSTEM_READ)
    java_home = os.path.realpath(shutil.which("java") or "/usr/bin/java")
    java_home = os.path.dirname(os.path.dirname(java_home))
    if not any(java_home == r or java_home.startswith(r + "/") for r in read):
        read.append(java_home)
    read = [r for r in read if os.path.exists(r)] + [ws.ro]
    ws.read_paths = read  # the sandlock peer arm grants the same paths
    with open(os.path.join(BENCH_DIR, "policy", "bench-policy.yaml.in")) as f:
        text = f.read()
    text = text.replace("@READ_PATHS@", ", ".join(read)).replace("@SCRATCH@", ws.scratch).replace("@PORT@", str(port))
    with open(path, "w") as f:
        f.write(text)
    return text


def render_container_policy(text, path):
    """METHODOLOGY.md amendment 3: the bench policy with egress stated as none (the container backend has no
    egress path yet) and the container isolation class; every other section unchanged."""
    lines = text.splitlines()
    out, skip = [], False
    for line in lines:
        if line.startswith("isolation:"):
            line = "isolation: container"
        if line.startswith("network:"):
            out += ["network:", "  egress:", "    allow: []"]
            skip = True
            continue
        if skip and line.startswith(" "):
            continue
        skip = False
        out.append(line)
    text = "\n".join(out) + "\n"
    with open(path, "w") as f:
        f.write(text)
    return text


def build_arms(a, ws, port, policy, out, mode, log, smp, container_policy=None):
    """Every arm with its presence (and the reason when absent). Returns (present arms, arm table, driver)."""
    base_env = {k: v for k, v in os.environ.items()}
    base_env.setdefault("LANG", "C")
    base_env.setdefault("HOME", "/root")
    L = lambda n: os.path.join(BENCH_DIR, "launchers", n)
    nop = ws.argv("startup_nop", port)
    table, present, driver = {}, [], None
    aasm_bin = None
    if os.path.isdir(os.path.join(a.aasm_home, "bin")):
        # a snapshot, so that a concurrent rebuild cannot swap the CLI under a running benchmark
        snap = os.path.join(ws.root, "aasm")
        shutil.copytree(a.aasm_home, snap, symlinks=True)
        aasm_bin = os.path.join(snap, "bin", "aasm")
    # AASM_CLIENT=off: the CLI arms stay cold even while the resident arm's kernel runs (amendment 5)
    cli_env = dict(base_env, AASM_BIN=aasm_bin or "", AASM_BENCH_POLICY=policy, AASM_CLIENT="off",
                   XDG_CACHE_HOME=os.path.join(ws.root, "cache"))
    sandlock_bin, sandlock_how = arms.sandlock(REPO)
    # the CLI finds sandlock the way a user's does: through AA_SANDLOCK_BIN (an absolute path)
    sandlock_env = dict(cli_env, AASM_BENCH_BACKEND="sandlock", AA_SANDLOCK_BIN=sandlock_bin or "")
    bw_env = dict(base_env, AASM_BENCH_TREE=ws.ro, AASM_BENCH_SCRATCH=ws.scratch)
    engine, no_engine = arms.container_engine()
    container_env = dict(cli_env, AASM_BENCH_BACKEND="aasm-container", AASM_BENCH_ISOLATION="container",
                         AASM_BENCH_POLICY=container_policy or "")
    kernel_box = []
    vm_ok, vm_why = arms.vm_backend(os.path.dirname(os.path.dirname(aasm_bin)) if aasm_bin else None)
    direct_env = dict(base_env, AASM_SANDLOCK_BIN=sandlock_bin or "", AASM_BENCH_READ=":".join(ws.read_paths),
                      AASM_BENCH_SCRATCH=ws.scratch, AASM_BENCH_PORT=str(port))
    candidates = [
        ("unconfined", lambda: arms.LauncherArm("unconfined", L("unconfined.sh"), base_env, ws.scratch, log, smp), None),
        ("negative-control", lambda: arms.LauncherArm("negative-control", L("throttled.sh"),
                                                      dict(base_env, AASM_BENCH_DELAY_S="0.5"), ws.scratch, log, smp), None),
        ("native-cli", lambda: arms.LauncherArm("native-cli", L("aasm-cli.sh"),
                                                dict(cli_env, AASM_BENCH_BACKEND="aasm-native"), ws.scratch, log, smp),
         None if aasm_bin else "no aasm distribution at %s (build: mvn -q -DskipTests install)" % a.aasm_home),
        ("native-api", None, None),
        ("sandlock-api", None, None if sandlock_bin else sandlock_how),
        ("sandlock", lambda: arms.LauncherArm("sandlock", L("aasm-cli.sh"), sandlock_env, ws.scratch, log, smp),
         None if sandlock_bin and aasm_bin else (sandlock_how if aasm_bin else "no aasm distribution")),
        ("resident", lambda: _resident_arm(cli_env, ws, out, log, smp, kernel_box),
         None if aasm_bin else "no aasm distribution at %s (build: mvn -q -DskipTests install)" % a.aasm_home),
        ("sandlock-direct", lambda: arms.LauncherArm("sandlock-direct", L("sandlock-direct.sh"), direct_env,
                                                     ws.scratch, log, smp), sandlock_how if not sandlock_bin else None),
        ("vm-cli", lambda: arms.LauncherArm("vm-cli", L("aasm-cli.sh"),
                                            dict(cli_env, AASM_BENCH_BACKEND="aasm-qemu-vm", AASM_BENCH_ISOLATION="vm"),
                                            ws.scratch, log, smp),
         None if vm_ok and aasm_bin else (vm_why if aasm_bin else "no aasm distribution")),
        ("bwrap", lambda: arms.LauncherArm("bwrap", L("bwrap.sh"), bw_env, ws.scratch, log, smp,
                                           {"tcp_loopback": {"AASM_BENCH_SHARE_NET": "1"}}),
         None if arms.which("bwrap") else "no bwrap executable on PATH (apt-get install -y bubblewrap)"),
        ("container-cli", lambda: arms.LauncherArm("container-cli", L("aasm-cli.sh"), container_env, ws.scratch, log,
                                                   smp, skip=NO_EGRESS),
         None if engine and aasm_bin else (no_engine if aasm_bin else "no aasm distribution")),
        ("container-api", None, no_engine),
    ]
    wanted = set(a.arms.split(",")) if a.arms else None
    for arm_id, make, absent in candidates:
        if wanted is not None and arm_id not in wanted and arm_id not in ("unconfined", "negative-control"):
            table[arm_id] = {"present": False, "reason": "not selected (--arms)"}
            continue
        if arm_id in ("native-api", "sandlock-api", "container-api"):
            if absent:
                table[arm_id] = {"present": False, "reason": absent}
                continue
            try:
                if driver is None:
                    home = os.path.dirname(os.path.dirname(aasm_bin)) if aasm_bin else a.aasm_home
                    # the same cache (probe results) as the CLI arms
                    driver = warm.Driver(BENCH_DIR, home, policy, ws.root, os.path.join(out, "driver.log"),
                                         dict(base_env, AA_SANDLOCK_BIN=sandlock_bin or "",
                                              XDG_CACHE_HOME=cli_env["XDG_CACHE_HOME"]), container_policy)
                mode_of = {"native-api": "kernel", "sandlock-api": "sandlock", "container-api": "container"}
                arm = arms.WarmArm(driver, ws.scratch, mode_of[arm_id], arm_id,
                                   skip=NO_EGRESS if arm_id == "container-api" else ())
                arm.throughput_count = ws.size["throughput"]
            except Exception as e:
                table[arm_id] = {"present": False, "reason": "warm driver unavailable: %s" % e}
                continue
        elif absent:
            table[arm_id] = {"present": False, "reason": absent}
            continue
        else:
            try:
                arm = make()
            except RuntimeError as e:  # the resident kernel did not start: absent, with the reason
                table[arm_id] = {"present": False, "reason": str(e)}
                continue
        served = kernel_box[0].served() if arm_id == "resident" else None
        ok, why = arms.preflight(arm, nop)
        if ok and served is not None and not kernel_box[0].wait_served(served + 1):
            # the client falls back to a cold run when no kernel answers: that would measure the wrong path
            ok, why = False, "preflight was not served by the resident kernel (cold fallback?)"
        if ok and arm_id not in ("unconfined", "negative-control"):
            ok, check = arms.confinement_check(arm, os.path.join(ws.root, "outside-" + arm_id))
            why = why + "; " + check
        table[arm_id] = {"present": ok, "reason": why}
        if ok:
            present.append(arm)
        print("arm %-16s %s" % (arm_id, ("present: " if ok else "ABSENT: ") + why), flush=True)
    for arm_id, row in table.items():
        if not row["present"] and "preflight" not in row["reason"]:
            print("arm %-16s ABSENT: %s" % (arm_id, row["reason"]), flush=True)
    if driver and not {"native-api", "sandlock-api", "container-api"} & {x.id for x in present}:
        driver.close()
        driver = None
    return present, table, driver, (kernel_box[0] if kernel_box else None)


def _resident_arm(cli_env, ws, out, log, smp, box):
    """The resident arm (amendment 5): bin/aasm -> aasm-client -> a kernel of this run's own, started here."""
    env = dict(cli_env, AASM_BENCH_BACKEND="aasm-native")
    env.pop("AASM_CLIENT")
    kernel = resident.ResidentKernel(env["AASM_BIN"], env, os.path.join(ws.root, "run"),
                                     os.path.join(out, "resident-kernel.log"))
    box.append(kernel)
    ok, why = kernel.start()
    if not ok:
        raise RuntimeError("resident kernel did not start: " + why)
    # P6 NOT_MEASURED: wait4 sees the client, the launched tree is the kernel's child
    return arms.LauncherArm("resident", os.path.join(BENCH_DIR, "launchers", "aasm-cli.sh"), kernel.env,
                            ws.scratch, log, smp, rss=False)


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
    try:
        ws = workloads.Workspace(root, BENCH_DIR, mode)
        srv, port = server.start()
        policy = os.path.join(root, "bench-policy.yaml")
        policy_text = render_policy(ws, port, policy)
        shutil.copyfile(policy, os.path.join(out, "bench-policy.yaml"))
        container_policy = os.path.join(root, "bench-policy-container.yaml")
        render_container_policy(policy_text, container_policy)
        shutil.copyfile(container_policy, os.path.join(out, "bench-policy-container.yaml"))
        log = os.path.join(out, "arms-stderr.log")
        print("aasm benchmarks, %s mode: %d warm-up + %d kept repetitions; results in %s" % (mode, warmup, reps, out))
        fp = env.fingerprint(ws.scratch, os.path.join(a.aasm_home, "bin", "aasm"), REPO, arms.sandlock(REPO)[0])
        load_before = env.load()
        helper = sampler.build_helper(root)
        smp = sampler.Sampler(helper)
        present, table, driver, kernel = build_arms(a, ws, port, policy, out, mode, log, smp, container_policy)
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
            "cold_start": cold, "resident_kernel": kernel_memory or None,
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
        if srv:
            srv.shutdown()
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
