#!/usr/bin/env python3
"""Where the time of one resident launch goes, stage by stage, paired arms in one run. A benchmark, not a test.

Each arm is a resident kernel of its own (its own runtime, cache and HOME directories) started with
-Daasm.stages.file=<file> (ports' LaunchStages): every confined launch it serves appends one line of stage
marks, in microseconds from the accept of the client's connection, with the launcher's own CLOCK_MONOTONIC
stamps among them. The calls alternate round-robin between `/bin/true` and every arm, so background load
hits them alike; a stage's duration is the time from the previous mark to its own.

With --clients C --per-client K it then measures throughput too: C clients in parallel, K confined launches
each, arm after arm, for --rounds R rounds (the arms' order alternating), launches per second per arm and round.
For both phases it prints each kernel's CPU per launch from /proc/<pid>/stat: its JVM's own threads (utime +
stime), and apart from it the launchers and programs it reaped (cutime + cstime); and each kernel's resident set
(VmRSS) after the warm-up, after the latency runs and after the throughput runs. --warmup-clients C runs the
warm-up from C parallel clients (a long warm-up, e.g. 3,000 launches, in reasonable time).

usage: stages.py [--runs N] [--warmup N [--warmup-clients C]] [--clients C --per-client K --rounds R] ARM...
  ARM is NAME=DIST_DIR[:JAVA_OPTS] (JAVA_OPTS are added to AASM_JAVA_OPTS of that arm's kernel), e.g.
  stages.py new=distribution/target/aasm-0.1.0-SNAPSHOT old=/tmp/old-dist
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

POLICY = """apiVersion: aasm/v1
kind: Policy
metadata: {name: aasm-stages}
isolation: process
filesystem:
  read: {allow: [%(read)s]}
  write: {allow: [%(scratch)s, /dev/null]}
network:
  egress:
    allow: [{host: loopback, port: 9}]
syscalls:
  deny: [ptrace, mount, umount2, kexec_load, init_module, bpf, perf_event_open, keyctl, add_key, request_key, swapon, swapoff, reboot]
process: {max: 512}
credentials: {delegate: [PATH, HOME, LANG]}
resources: {memory: 2GiB, open_files: 1024, processes: 512}
"""


CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid):
    """(own, reaped children's) utime + stime of a process in ms: the kernel JVM's own threads, and the
    launchers (with their programs) it waited for. Fields are counted after the command name's last ')'."""
    with open("/proc/%d/stat" % pid) as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    return ((int(fields[11]) + int(fields[12])) * 1000.0 / CLK_TCK,
            (int(fields[13]) + int(fields[14])) * 1000.0 / CLK_TCK)


def zygotes(pid):
    """The kernel's pre-forked launchers (`aasm-launch serve`, PROTOCOL.md "Zygote"): the launchers they reap are
    theirs, not the JVM's, so their CPU counts as the kernel's children's."""
    out = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                for child in f.read().split():
                    try:
                        with open("/proc/%s/cmdline" % child, "rb") as c:
                            if b"\0serve\0" in c.read():
                                out.append(int(child))
                    except OSError:
                        pass
    except OSError:
        pass
    return out


def cpu_with_zygotes(pid):
    """cpu_ms of the kernel, with each zygote's own and reaped CPU added to the children's column."""
    own, kids = cpu_ms(pid)
    for z in zygotes(pid):
        try:
            zo, zk = cpu_ms(z)
            kids += zo + zk
        except OSError:
            pass
    return own, kids


def rss_mib(pid):
    """The process's resident set (VmRSS) in MiB, or NaN when it cannot be read."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))] if v else float("nan")


class Arm:
    def __init__(self, spec, work):
        name, _, rest = spec.partition("=")
        dist, _, opts = rest.partition(":")
        self.name, self.dist = name, os.path.abspath(dist)
        self.dir = os.path.join(work, name)
        self.run = os.path.join(self.dir, "run")
        os.makedirs(self.run, mode=0o700)
        os.makedirs(os.path.join(self.dir, "cache"))
        os.makedirs(os.path.join(self.dir, "home"))
        self.stages = os.path.join(self.dir, "stages.jsonl")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.run, XDG_CACHE_HOME=os.path.join(self.dir, "cache"),
                        HOME=os.path.join(self.dir, "home"),
                        AASM_JAVA_OPTS=(os.environ.get("AASM_JAVA_OPTS", "") + " -Daasm.stages.file=" + self.stages
                                        + " " + opts).strip())
        self.walls = []
        self.pid = None
        self.cpu = {}  # phase -> (own ms, children ms, launches)
        self.rss = []  # (after which phase, MiB)

    def start(self):
        out = subprocess.run([os.path.join(self.dist, "bin", "aasm"), "daemon", "start"], env=self.env, check=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout
        if "pid=" not in out:
            out = subprocess.run([os.path.join(self.dist, "bin", "aasm"), "daemon", "status"], env=self.env,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        m = re.search(r"pid=(\d+)", out)
        self.pid = int(m.group(1)) if m else None

    def account(self, phase, before, launches):
        """Adds the kernel's CPU since `before` (a cpu_ms() pair) to `phase`."""
        if self.pid:
            now = cpu_with_zygotes(self.pid)
            own, kids, n = self.cpu.get(phase, (0.0, 0.0, 0))
            self.cpu[phase] = (own + now[0] - before[0], kids + now[1] - before[1], n + launches)

    def note_rss(self, after):
        if self.pid:
            self.rss.append((after, rss_mib(self.pid)))

    def snapshot(self):
        return cpu_with_zygotes(self.pid) if self.pid else (0.0, 0.0)

    def aasm(self, *args, check=True):
        return subprocess.run([os.path.join(self.dist, "bin", "aasm"), *args], env=self.env, check=check,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def call(self, argv, cwd):
        t0 = time.perf_counter_ns()
        p = subprocess.run([os.path.join(self.dist, "bin", "aasm-client"), *argv], env=self.env, cwd=cwd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = (time.perf_counter_ns() - t0) / 1000.0
        if p.returncode != 0 or "posture=READY" not in p.stderr:
            sys.exit("arm %s: the confined launch failed or was not READY (%d):\n%s" % (self.name, p.returncode,
                                                                                          p.stderr))
        return wall


def durations(line):
    marks = sorted(json.loads(line).items(), key=lambda kv: kv[1])
    out = {}
    for (_, prev), (name, at) in zip(marks, marks[1:]):
        out[name] = out.get(name, 0) + at - prev
    return out, dict(marks)


def throughput(arms, argv, cwd, a):
    """Launches per second with a.clients parallel clients, arm after arm, the order alternating per round."""
    rates = {arm.name: [] for arm in arms}
    for r in range(a.rounds):
        for arm in (arms if r % 2 == 0 else list(reversed(arms))):
            failed = []

            def client(arm=arm, failed=failed):
                for _ in range(a.per_client):
                    try:
                        arm.call(argv, cwd)
                    except SystemExit as e:  # a launch that failed or was not READY: said, and counted
                        failed.append(str(e))
            threads = [threading.Thread(target=client) for _ in range(a.clients)]
            cpu0 = arm.snapshot()
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            rates[arm.name].append(a.clients * a.per_client / (time.perf_counter() - t0))
            time.sleep(0.5)  # the last connections' threads finish (trace, request log) after the clients exit
            arm.account("throughput", cpu0, a.clients * a.per_client)
            if failed:
                sys.exit("arm %s: %d launches failed under load, the first: %s" % (arm.name, len(failed), failed[0]))
    load = open("/proc/loadavg").read().split()[:3]
    print("throughput measured at load average %s (end)" % "/".join(load))
    return rates


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--warmup-clients", type=int, default=1)
    ap.add_argument("--clients", type=int, default=0)
    ap.add_argument("--per-client", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("arms", nargs="+")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="aasm-stages-")
    scratch = os.path.join(work, "scratch")
    os.makedirs(scratch)
    read = ", ".join(p for p in ["/usr", "/etc", "/lib", "/lib64", "/bin", "/sbin"] if os.path.exists(p))
    policy = os.path.join(work, "policy.yaml")
    with open(policy, "w") as f:
        f.write(POLICY % {"read": read, "scratch": scratch})
    argv = ["run", "exec", "--isolation", "process", "--isolation-backend", "aasm-native", "--policy", policy,
            "--", "/bin/true"]
    arms = [Arm(s, work) for s in a.arms]
    try:
        for arm in arms:
            arm.start()
        warm0 = {arm.name: arm.snapshot() for arm in arms}
        if a.warmup_clients > 1:
            for arm in arms:  # arm after arm, from parallel clients
                per = a.warmup // a.warmup_clients
                ts = [threading.Thread(target=lambda arm=arm: [arm.call(argv, scratch) for _ in range(per)])
                      for _ in range(a.warmup_clients)]
                for t in ts:
                    t.start()
                for t in ts:
                    t.join()
        else:
            for _ in range(a.warmup):
                for arm in arms:
                    arm.call(argv, scratch)
        time.sleep(1)
        for arm in arms:
            arm.account("warm-up", warm0[arm.name], a.warmup - a.warmup % max(1, a.warmup_clients))
            arm.note_rss("warm-up")  # a trace is appended after its status was sent: let the warm-up's last ones land
        for arm in arms:
            open(arm.stages, "w").close()
        base = []
        cpu0 = {arm.name: arm.snapshot() for arm in arms}
        load0 = open("/proc/loadavg").read().split()[:3]
        for i in range(a.runs):
            order = arms[i % len(arms):] + arms[:i % len(arms)]
            t0 = time.perf_counter_ns()
            subprocess.run(["/bin/true"])
            base.append((time.perf_counter_ns() - t0) / 1000.0)
            for arm in order:
                arm.walls.append(arm.call(argv, scratch))
        load1 = open("/proc/loadavg").read().split()[:3]
        time.sleep(1)
        for arm in arms:
            arm.account("latency", cpu0[arm.name], a.runs)
            arm.note_rss("latency runs")
        for arm in arms:  # the latency runs' traces, before the throughput runs append theirs
            with open(arm.stages) as f:
                arm.lines = [l for l in f if l.strip()]
        rates = throughput(arms, argv, scratch, a) if a.clients else {}
        if a.clients:
            for arm in arms:
                arm.note_rss("throughput")
    finally:
        for arm in arms:
            arm.aasm("daemon", "stop", check=False)
    print("runs %d per arm (after %d warm-up), load average %s at the start, %s at the end, %d cores"
          % (a.runs, a.warmup, "/".join(load0), "/".join(load1), os.cpu_count()))
    print("`/bin/true` alone: median %.2f ms, p95 %.2f ms" % (statistics.median(base) / 1000, pct(base, 95) / 1000))
    for arm in arms:
        traces = [durations(l) for l in arm.lines]
        names = []
        for d, _ in traces:
            names += [n for n in sorted(d, key=lambda n: statistics.median([t[1].get(n, 0) for t in traces]))
                      if n not in names]
        kernel = [m["status_sent"] for _, m in traces if "status_sent" in m]
        added = [w - b for w, b in zip(arm.walls, base)]
        print("\narm %s (%s): client-observed median %.2f ms (p95 %.2f), added to /bin/true median %.2f ms "
              "(p95 %.2f); accept to status sent median %.2f ms; %d traces"
              % (arm.name, arm.dist, statistics.median(arm.walls) / 1000, pct(arm.walls, 95) / 1000,
                 statistics.median(added) / 1000, pct(added, 95) / 1000, statistics.median(kernel) / 1000,
                 len(traces)))
        print("| stage (ends at) | median ms | p95 ms | share of client-observed median |")
        print("|---|---|---|---|")
        for n in names:
            v = [d.get(n, 0) for d, _ in traces]
            print("| %s | %.2f | %.2f | %.1f %% |" % (n, statistics.median(v) / 1000, pct(v, 95) / 1000,
                                                   100.0 * statistics.median(v) / statistics.median(arm.walls)))
        outside = statistics.median(arm.walls) - statistics.median(kernel)
        print("| client: exec, connect, request sent; status read, exit (wall minus accept..status sent) | %.2f | "
              "– | %.1f %% |" % (outside / 1000, 100.0 * outside / statistics.median(arm.walls)))
    first = arms[0]
    for arm in arms[1:]:
        # paired: the same round's calls ran back to back, so the background load of the round cancels
        d = [x - y for x, y in zip(arm.walls, first.walls)]
        print("\npaired, %s minus %s, client-observed: median %+.2f ms, p5 %+.2f, p95 %+.2f; %s faster in %d of %d rounds"
              % (arm.name, first.name, statistics.median(d) / 1000, pct(d, 5) / 1000, pct(d, 95) / 1000, arm.name,
                 sum(1 for x in d if x < 0), len(d)))
    for prev, arm in zip(arms[1:], arms[2:]):
        # each arm against the one before it too: arms listed as successive steps pair each step on its own
        d = [x - y for x, y in zip(arm.walls, prev.walls)]
        print("\npaired, %s minus %s, client-observed: median %+.2f ms, p5 %+.2f, p95 %+.2f; %s faster in %d of %d rounds"
              % (arm.name, prev.name, statistics.median(d) / 1000, pct(d, 5) / 1000, pct(d, 95) / 1000, arm.name,
                 sum(1 for x in d if x < 0), len(d)))
    for name, r in rates.items():
        print("throughput %s: %s launches/s (%d clients x %d launches, rounds in order)"
              % (name, ", ".join("%.1f" % x for x in r), a.clients, a.per_client))
    for arm in arms:
        for phase, (own, kids, n) in arm.cpu.items():
            print("kernel CPU per launch, %s, %s: %.2f ms in the kernel JVM (utime+stime), %.2f ms in the launchers and"
                  " programs it reaped; %d launches" % (arm.name, phase, own / n, kids / n, n))
    for arm in arms:
        print("kernel RSS, %s: %s" % (arm.name, ", ".join("%.1f MiB after %s" % (m, p) for p, m in arm.rss)))
    print("\nwork directory (stage files): %s" % work)


if __name__ == "__main__":
    main()
