"""The arms of METHODOLOGY.md section 1. An arm turns (workload, argv) into one sample, or is absent with
a reason (never simulated)."""
import os, shutil


class LauncherArm:
    """Arms measured by fork + exec of a launcher script + wait4. {@code skip}: workloads the arm cannot run
    (METHODOLOGY.md amendment 3: the container arms have no egress, so no P5); their families are NOT_MEASURED."""

    def __init__(self, arm_id, launcher, env, cwd, log, sampler, workload_env=None, skip=(), rss=True):
        self.id, self.launcher, self.env, self.cwd, self.log = arm_id, launcher, env, cwd, log
        self.sampler = sampler
        self.workload_env = workload_env or {}
        self.workloads = None  # every workload but throughput
        self.skip = frozenset(skip)
        # False where wait4 sees only a client, not the launched tree (resident arm: P6 NOT_MEASURED)
        self.rss = rss

    def sample(self, workload, argv):
        env = dict(self.env, **self.workload_env.get(workload, {}))
        s = self.sampler.run([self.launcher] + argv, env, self.cwd, stderr_path=self.log)
        if not self.rss:
            s["rss_mib"] = None
        return s


class WarmArm:
    """native-api / sandlock-api: one warm JVM times decide + launch + await with the backend pinned;
    P6 cannot be measured (no wait4 in the JVM)."""

    def __init__(self, driver, cwd, mode, arm_id="native-api", skip=()):
        self.id, self.driver, self.cwd, self.mode = arm_id, driver, cwd, mode
        self.throughput_count = None
        self.skip = frozenset(skip)

    def sample(self, workload, argv):
        count = self.throughput_count if workload == "throughput" else 1
        times, rc = self.driver.run(self.mode, count, self.cwd, argv)
        return {"wall_ms": sum(times) / len(times), "rc": rc, "rss_mib": None, "launches": len(times),
                "per_launch_ms": times if count > 1 else None}


class DirectThroughput:
    """The T1 baseline for the unconfined arm: the same warm JVM, plain ProcessBuilder."""

    def __init__(self, driver, cwd, count):
        self.driver, self.cwd, self.count = driver, cwd, count

    def sample(self, argv):
        times, rc = self.driver.run("pb", self.count, self.cwd, argv)
        return {"wall_ms": sum(times) / len(times), "rc": rc, "rss_mib": None, "launches": len(times),
                "per_launch_ms": times}


def preflight(arm, argv):
    """(ok, reason): one /bin/true through the arm before any timing."""
    try:
        s = arm.sample("startup_nop", argv)
    except Exception as e:  # a broken arm is reported, never hidden
        return False, "preflight raised %s" % e
    if s["rc"] != 0:
        tail = ""
        log = getattr(arm, "log", None)
        if log and os.path.exists(log):
            with open(log, errors="replace") as f:
                lines = [l.strip() for l in f.read().splitlines() if l.strip()]
            tail = ": " + " | ".join(lines[-3:])
        return False, "preflight /bin/true exited %d%s" % (s["rc"], tail)
    return True, "preflight ok (%.1f ms)" % s["wall_ms"]


def confinement_check(arm, outside):
    """(ok, reason): a confined arm must stop a grandchild's write outside the scratch dir (effect checked)."""
    argv = ["/bin/sh", "-c", "/bin/sh -c 'echo escaped > %s'; :" % outside]
    try:
        s = arm.sample("startup_nop", argv)
    except Exception as e:
        return False, "confinement check raised %s" % e
    if os.path.exists(outside):
        os.unlink(outside)
        return False, "NOT CONFINED: a write outside the scratch dir succeeded (exit %d)" % s["rc"]
    return True, "write outside scratch stopped (file absent)"


def container_engine():
    """(socket, None) when a container engine's unix socket is there, else (None, why): the container arms'
    condition. The CLI and the warm JVM find the engine the same way (DOCKER_HOST, else the default socket)."""
    host = os.environ.get("DOCKER_HOST", "")
    if host:
        if not host.startswith("unix://"):
            return None, "DOCKER_HOST=%s is not a unix:// socket" % host
        path = host[len("unix://"):]
    else:
        path = "/var/run/docker.sock"
    if os.path.exists(path) and not os.path.isdir(path) and not os.path.isfile(path):
        return path, None
    return None, "no container engine socket at %s (start one as .ci/run does and set DOCKER_HOST)" % path


def which(name):
    return shutil.which(name)


def sandlock(repo):
    """(path, how it was found) or (None, why there is none). METHODOLOGY.md amendment 2: AA_SANDLOCK_BIN,
    else the shared test binary next to the clone (../shared/tools/sandlock-0.8.6/sandlock), else PATH."""
    pinned = os.environ.get("AA_SANDLOCK_BIN")
    if pinned:
        if os.path.isfile(pinned) and os.access(pinned, os.X_OK):
            return pinned, "AA_SANDLOCK_BIN"
        return None, "AA_SANDLOCK_BIN=%s is not an executable file" % pinned
    shared = os.path.join(os.path.dirname(os.path.abspath(repo)), "shared", "tools", "sandlock-0.8.6", "sandlock")
    if os.path.isfile(shared) and os.access(shared, os.X_OK):
        return shared, "shared test binary"
    found = shutil.which("sandlock")
    if found:
        return found, "PATH"
    return None, "no sandlock executable (AA_SANDLOCK_BIN unset, %s absent, none on PATH)" % shared


def vm_backend(home):
    """(True, how) when the distribution at home carries the aasm-qemu-vm backend and QEMU is installed, else
    (False, why): the vm-cli arm's condition (METHODOLOGY.md amendment 5)."""
    import glob
    jars = [j for d in ("bundle", "deploy") for j in glob.glob(os.path.join(home or "", d, "*.jar"))]
    if not any("vhost" in os.path.basename(j) or "qemu" in os.path.basename(j) for j in jars):
        return False, ("the distribution's bundle set has no aasm-qemu-vm bundle (adapter-macos-vhost is not "
                       "registered in bundle/ or deploy/; docs/vm.md)")
    if not shutil.which("qemu-system-x86_64"):
        return False, "no qemu-system-x86_64 on PATH (apt-get install -y qemu-system-x86)"
    return True, "aasm-qemu-vm bundle and qemu-system-x86_64 found"
