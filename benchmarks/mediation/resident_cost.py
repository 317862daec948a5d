#!/usr/bin/env python3
"""The proxy's memory and first-use cost inside the resident kernel (issue 14's owed figures; docs/mediation.md).

  resident_cost.py AASM_HOME [--launches K]

Starts a resident kernel of its own (`aasm daemon start`; set XDG_RUNTIME_DIR and XDG_CACHE_HOME to private
folders first: it must not meet another kernel), then, through `bin/aasm run exec` (the client), in this order:
  1. K launches that are not mediated (aasm-native, python importing bench.py, no egress grant): the kernel's RSS
     after them is the baseline (the mediator's component is active, its pool and listeners not yet made);
  2. one mediated launch (a host-name grant pinned to this script's server on 127.0.0.1, one CONNECT through the
     proxy and one answered byte): its wall time against the median unmediated one is the first use;
  3. K more mediated launches, each with one CONNECT: their median wall time and the RSS after them.
RSS is VmRSS of the kernel's JVM from /proc, read after each phase (no GC forced: what a user would see). The load
average is printed with the figures. Prints one JSON object; stops the kernel it started.
"""
import json, os, socket, statistics, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the server and the client's CONNECT)


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS for pid %d" % pid)


def kernel_pid(aasm, env):
    out = subprocess.run([aasm, "daemon", "status", "--json"], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("no resident kernel answers: " + out.stdout + out.stderr)
    return int(json.loads(out.stdout)["pid"])


def timed(cmd, env):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    dt = (time.perf_counter() - t0) * 1000.0
    if p.returncode != 0:
        raise SystemExit("launch failed (%d): %s%s" % (p.returncode, p.stdout, p.stderr))
    return dt


def main(home, k):
    aasm = os.path.join(home, "bin", "aasm")
    env = dict(os.environ, PATH="/usr/bin:/bin")
    for v in ("XDG_RUNTIME_DIR", "XDG_CACHE_HOME"):
        if not os.environ.get(v, "").startswith("/"):
            raise SystemExit(v + " must name a private folder: this script starts and stops a resident kernel")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    threading.Thread(target=bench.serve, args=(sock,), daemon=True).start()
    scratch = tempfile.mkdtemp(prefix="aasm-med-cost-")
    here = os.path.abspath(__file__)
    plain = os.path.join(scratch, "plain.yaml")
    reads = ", ".join(p for p in ["/usr", "/bin", "/lib", "/lib64", "/etc", os.path.dirname(here)]
                      if os.path.exists(p))
    with open(plain, "w") as f:
        f.write("apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  read: {allow: [%s]}\n" % reads)
    mediated = os.path.join(scratch, "mediated.yaml")
    with open(mediated, "w") as f:
        f.write("apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  read: {allow: [%s]}\n" % reads
                + "network:\n  egress: {allow: [{host: bench.test, port: %d}]}\n" % port
                + "  name_resolution: {hosts: {bench.test: 127.0.0.1}}\n")
    run = [aasm, "run", "exec", "--isolation", "process", "--isolation-backend", "aasm-native", "--policy"]
    probe = ["--", "/usr/bin/python3", "-c", "import sys; sys.path.insert(0, %r); import bench; "
             "print(bench.latency('proxy', %d))" % (os.path.dirname(here), port)]
    if subprocess.run([aasm, "daemon", "start"], env=env, capture_output=True).returncode != 0:
        raise SystemExit("aasm daemon start failed")
    try:
        pid = kernel_pid(aasm, env)
        out = {"kernel_pid": pid, "rss_kib_started": rss_kib(pid)}
        same = ["--", "/usr/bin/python3", "-c", "import sys; sys.path.insert(0, %r); import bench"
                % os.path.dirname(here)]  # the probe's imports, without its CONNECT
        plain_ms = [timed(run + [plain] + same, env) for _ in range(k)]
        out["rss_kib_after_unmediated"] = rss_kib(pid)
        first = timed(run + [mediated] + probe, env)
        out["rss_kib_after_first_mediated"] = rss_kib(pid)
        later = [timed(run + [mediated] + probe, env) for _ in range(k)]
        out["rss_kib_after_mediated"] = rss_kib(pid)
        out.update({"launches_per_phase": k, "unmediated_ms_median": statistics.median(plain_ms),
                    "first_mediated_ms": first, "mediated_ms_median": statistics.median(later),
                    "first_use_added_ms": first - statistics.median(later),
                    "mediated_added_ms_median": statistics.median(later) - statistics.median(plain_ms),
                    "load_average": os.getloadavg()})
        print(json.dumps(out, indent=2))
    finally:
        subprocess.run([aasm, "daemon", "stop"], env=env, capture_output=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    opts = {"--launches": 10}
    for i in range(2, len(sys.argv), 2):
        opts[sys.argv[i]] = int(sys.argv[i + 1])
    main(sys.argv[1], opts["--launches"])
