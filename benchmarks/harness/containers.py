"""Memory per running container (METHODOLOGY.md amendment 3): what the host holds for each running
aasm-container launch beyond the program itself. K launches of the same sleep run at once through the
container-cli arm, next to K unconfined copies of it; for each container the resident sets of the
engine's shim, aasm's guard, aasm's init and the program are read from /proc (the supervising JVM is not
counted: it is the same for every backend, and P6 measures it), and its memory cgroup's usage is read.
Reported, not graded: no threshold was registered for it."""
import http.client, json, os, signal, socket, statistics, subprocess, time, urllib.parse

from . import arms

SLEEP = "59.125"  # a duration no other process of the host uses: how the program is told apart


class _UnixHTTP(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("docker", timeout=10)
        self._path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self._path)


def _get(sock, path):
    c = _UnixHTTP(sock)
    try:
        c.request("GET", path)
        return json.loads(c.getresponse().read() or b"null")
    finally:
        c.close()


def _status(pid, field):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def _ppid(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def _pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def _cgroup_usage(pid):
    """Bytes charged to the process's memory cgroup (v1 memory.usage_in_bytes or v2 memory.current)."""
    try:
        with open("/proc/%d/cgroup" % pid) as f:
            for line in f:
                _, ctrl, path = line.rstrip("\n").split(":", 2)
                for base, name in (("/sys/fs/cgroup/memory", "memory.usage_in_bytes"), ("/sys/fs/cgroup", "memory.current")):
                    if (ctrl == "memory" and base.endswith("memory")) or (ctrl == "" and base == "/sys/fs/cgroup"):
                        p = base + path + "/" + name
                        if os.path.exists(p):
                            with open(p) as g:
                                return int(g.read())
    except (OSError, ValueError):
        pass
    return None


def _engine_rss():
    names = {"dockerd", "containerd"}
    total = 0
    for pid in _pids():
        try:
            with open("/proc/%d/comm" % pid) as f:
                if f.read().strip() in names:
                    total += _status(pid, "VmRSS") or 0
        except OSError:
            pass
    return total


def _ours(sock):
    """{container id: init pid} of running aasm-container containers whose program is our sleep."""
    flt = urllib.parse.quote(json.dumps({"label": ["io.aasm.backend=aasm-container"], "status": ["running"]}))
    out = {}
    for c in _get(sock, "/containers/json?filters=" + flt) or []:
        pid = (_get(sock, "/containers/%s/json" % c["Id"]) or {}).get("State", {}).get("Pid") or 0
        if pid and any(SLEEP.encode() in _cmdline(k) for k in [pid] + _children(pid)):
            out[c["Id"]] = pid
    return out


def memory_per_container(present, ws, k):
    arm = next((a for a in present if a.id == "container-cli"), None)
    if arm is None:
        return {"measured": False, "reason": "the container-cli arm is absent"}
    sock, why = arms.container_engine()
    if not sock:
        return {"measured": False, "reason": why}
    baseline = [subprocess.Popen(["/bin/sleep", SLEEP]) for _ in range(k)]
    engine_before = _engine_rss()
    launches = [subprocess.Popen([arm.launcher, "/bin/sleep", SLEEP], env=arm.env, cwd=arm.cwd,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for _ in range(k)]
    try:
        deadline = time.time() + 180
        running = {}
        while time.time() < deadline and len(running) < k:
            time.sleep(0.5)
            running = _ours(sock)
        if len(running) < k:
            return {"measured": False, "reason": "only %d of %d containers came up within 180 s" % (len(running), k)}
        time.sleep(1)  # let each settle (the shim maps its runtime lazily)
        unconfined = statistics.median(_status(p.pid, "VmRSS") or 0 for p in baseline)
        rows = []
        for cid, init in running.items():
            program = next((c for c in _children(init) if SLEEP.encode() in _cmdline(c)), None)
            shim = _ppid(init)
            guard = next((p for p in _pids() if len(_cmdline(p)) > 3 and _cmdline(p)[3] == cid.encode()
                          and _cmdline(p)[0].endswith(b"aasm-container-guard")), None)
            kib = {name: (_status(pid, "VmRSS") if pid else None) for name, pid in
                   (("shim", shim), ("guard", guard), ("init", init), ("program", program))}
            usage = _cgroup_usage(init)
            rows.append(dict(kib, id=cid[:12], cgroup_usage_kib=usage // 1024 if usage is not None else None))
        added = [sum(r[n] or 0 for n in ("shim", "guard", "init", "program")) - unconfined for r in rows]
        engine_delta = (_engine_rss() - engine_before) / k
        return {"measured": True, "k": k, "unconfined_program_rss_kib": unconfined, "containers": rows,
                "added_rss_mib_median": statistics.median(added) / 1024.0,
                "cgroup_usage_mib_median": statistics.median(r["cgroup_usage_kib"] or 0 for r in rows) / 1024.0,
                "engine_daemons_rss_delta_mib_per_container": engine_delta / 1024.0}
    finally:
        for p in launches:
            try:
                p.send_signal(signal.SIGTERM)
            except OSError:
                pass
        for p in launches:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
        for p in baseline:
            p.kill()
            p.wait()
