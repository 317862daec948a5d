"""The arms of one run (METHODOLOGY.md section 1 and amendments 2-5): the rendered policies, every arm with
its presence or the reason it is absent, the warm driver and the resident kernel the arms need."""
import os, shutil, time

from . import arms, resident, warm, workloads

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(BENCH_DIR)
SYSTEM_READ = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/proc", "/dev"]
# METHODOLOGY.md amendment 3: the container arms have no egress, so no P5 workload
NO_EGRESS = ("tcp_loopback",)


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


def render_container_policy(text, path, isolation="container"):
    """METHODOLOGY.md amendment 3: the bench policy with egress stated as none (the container backend has no
    egress path yet; a guest cannot reach the host's loopback) and the arm's isolation class (container, or vm for
    the vm-cli arm); every other section unchanged."""
    lines = text.splitlines()
    out, skip = [], False
    for line in lines:
        if line.startswith("isolation:"):
            line = "isolation: " + isolation
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


def build_arms(a, ws, port, policy, out, mode, log, smp, container_policy=None, vm_policy=None):
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
                                            dict(cli_env, AASM_BENCH_BACKEND="aasm-qemu-vm", AASM_BENCH_ISOLATION="vm",
                                                 AASM_BENCH_POLICY=vm_policy or policy),
                                            ws.scratch, log, smp, skip=NO_EGRESS),
         None if vm_ok and aasm_bin else (vm_why if aasm_bin else "no aasm distribution")),
        ("vm-resident", lambda: _vm_resident_arm(cli_env, vm_policy or policy, ws, out, log, smp, mode, kernel_box),
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
            # an arm that could not run anyway says so, so that a partial run still reports every absence
            table[arm_id] = {"present": False, "reason": "not selected (--arms)" +
                             ("; absent anyway: %s" % absent if absent else "")}
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
        kern = _kernel_of(kernel_box, arm_id)
        served = kern.served() if kern else None
        ok, why = arms.preflight(arm, nop)
        if ok and served is not None and not kern.wait_served(served + 1):
            # the client falls back to a cold run when no kernel answers: that would measure the wrong path
            ok, why = False, "preflight was not served by the resident kernel (cold fallback?)"
        if ok and arm_id not in ("unconfined", "negative-control"):
            ok, check = arms.confinement_check(arm, os.path.join(ws.root, "outside-" + arm_id))
            why = why + "; " + check
        if ok and getattr(arm, "template_note", None):
            why = arm.template_note + "; " + why
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
    return present, table, driver, _kernel_of(kernel_box, "resident"), _kernel_of(kernel_box, "vm-resident")


def _kernel_of(box, arm_id):
    return next((k for a, k in box if a == arm_id), None)


def _resident_arm(cli_env, ws, out, log, smp, box):
    """The resident arm (amendment 5): bin/aasm -> aasm-client -> a kernel of this run's own, started here."""
    env = dict(cli_env, AASM_BENCH_BACKEND="aasm-native")
    env.pop("AASM_CLIENT")
    kernel = resident.ResidentKernel(env["AASM_BIN"], env, os.path.join(ws.root, "run"),
                                     os.path.join(out, "resident-kernel.log"))
    box.append(("resident", kernel))
    ok, why = kernel.start()
    if not ok:
        raise RuntimeError("resident kernel did not start: " + why)
    # P6 NOT_MEASURED: wait4 sees the client, the launched tree is the kernel's child
    return arms.LauncherArm("resident", os.path.join(BENCH_DIR, "launchers", "aasm-cli.sh"), kernel.env,
                            ws.scratch, log, smp, rss=False)


def _vm_resident_arm(cli_env, vm_policy, ws, out, log, smp, mode, box):
    """The vm-resident arm (issue 15): bin/aasm -> aasm-client -> a kernel of its own (so the resident arm's
    kernel is not the one traced) started with -Daasm.stages.file, launching into aasm-qemu-vm with the bench
    policy with egress none. The VM template is made by one launch here, before any timing, and said so.
    In quick mode only P1 runs (and the throughput levels): a TCG guest is slow, CI only checks the wiring."""
    env = dict(cli_env, AASM_BENCH_BACKEND="aasm-qemu-vm", AASM_BENCH_ISOLATION="vm", AASM_BENCH_POLICY=vm_policy)
    env.pop("AASM_CLIENT")
    stages = os.path.join(out, "vm-resident-stages.jsonl")
    env["AASM_JAVA_OPTS"] = (env.get("AASM_JAVA_OPTS", "") + " -Daasm.stages.file=" + stages).strip()
    kernel = resident.ResidentKernel(env["AASM_BIN"], env, os.path.join(ws.root, "run-vm"),
                                     os.path.join(out, "vm-resident-kernel.log"))
    box.append(("vm-resident", kernel))
    ok, why = kernel.start()
    if not ok:
        raise RuntimeError("resident kernel did not start: " + why)
    skip = NO_EGRESS if mode == "full" else tuple(w for w in workloads.ORDER if w != "startup_nop")
    arm = arms.LauncherArm("vm-resident", os.path.join(BENCH_DIR, "launchers", "aasm-cli.sh"), kernel.env,
                           ws.scratch, log, smp, skip=skip, rss=False)
    arm.stages_file = stages
    templates = os.path.join(env["XDG_CACHE_HOME"], "aasm", "vm", "templates")
    existed = _templates(templates)
    t0 = time.time()
    first = arm.sample("startup_nop", ["/bin/true"])
    made = _templates(templates) - existed
    # the first launch also assembles the guest image and measures the guest's capabilities when not cached
    arm.template_note = ("template made before timing: first launch %.0f ms (exit %d)%s" % (
        (time.time() - t0) * 1000, first["rc"], ", cold boot %s ms" % _boot_ms(templates, made) if made else
        ", the template already existed (made by an earlier arm of this run)"))
    print("arm %-16s %s" % ("vm-resident", arm.template_note), flush=True)
    return arm


def _templates(root):
    return set(d for d in (os.listdir(root) if os.path.isdir(root) else ())
               if os.path.isfile(os.path.join(root, d, "template.json")))


def _boot_ms(root, made):
    import json
    with open(os.path.join(root, sorted(made)[0], "template.json")) as f:
        return json.load(f).get("boot_ms")
