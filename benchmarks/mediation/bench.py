#!/usr/bin/env python3
"""Transport mediation figures (docs/mediation.md, docs/benchmarks.md): paired, in one run.

  bench.py run AASM_HOME [--rounds R] [--conns N] [--bulk MIB] [--bulks B] [--container 1] [--compare HOME2]
                         [--head buffered|bytewise]

Arms, all against one server on 127.0.0.1:P that this script owns:
  direct  - the client unconfined on the host (plain loopback): the baseline every figure is against;
  relay   - the client inside an aasm-native launch, through a granted loopback port (relay only);
  proxy   - the same launch, through the supervisor's proxy (relay + proxy, HTTP CONNECT by name).
  container - with --container 1: a second launch per round, aasm-container, through the container's transport
            relay (adapter-container RELAY.md) and the same proxy, interleaved with its own direct samples (a
            container has no loopback grant, so no relay-only arm; RelayCostBench measures that relay alone).
The three arms alternate sample by sample inside each launch (order reversed every other sample): the client in
the launch asks the host, over its stdin/stdout, to take each direct sample at its turn, so every ratio compares
samples taken seconds apart under the same load.
Connect latency = socket() to the 1-byte answer (plus the CONNECT exchange for proxy: what a client waits);
throughput = one bulk download per sample. Medians per arm, and the median of the per-sample ratios (each relay or
proxy sample against the direct sample taken next to it); the load average is recorded with the figures. The CPU
time the launcher's relay process spends during the bulk phase (from the host's /proc, before and after) gives its
cost per GiB moved, which depends far less on the machine's load than any throughput does; the supervisor's
(the launching JVM's) CPU per GiB of the proxy arm likewise.
With --compare HOME2, every round launches both distributions (order swapped every other round), and the figures
are printed for each: two builds, or one build with a configuration switch (conf/io.aasm.transport.proxy.cfg
hand.off), measured under the same load.
"""
import json, os, socket, statistics, subprocess, sys, tempfile, threading, time

PROXY_PORT = 3128
# How the proxy arm's client reads the CONNECT answer: "buffered" (as curl, pip or git do: whatever has arrived, until
# the blank line) or "bytewise" (one recv(1) per byte, as this script did until 2026-12-02: in Python that alone cost
# 0.1-0.3 ms per connect on this machine, which is the client's time, not the proxy's). Set by --head.
HEAD_READ = "buffered"


def serve(sock):
    while True:
        c, _ = sock.accept()
        threading.Thread(target=answer, args=(c,), daemon=True).start()


def answer(c):
    with c:
        cmd = c.recv(9)
        if cmd[:1] == b"L":
            c.sendall(b"!")
        elif cmd[:1] == b"B":
            left = int.from_bytes(cmd[1:9], "big")
            chunk = b"\0" * (1 << 20)
            while left > 0:
                n = min(left, len(chunk))
                c.sendall(chunk[:n])
                left -= n


def connect(mode, port):
    t0 = time.perf_counter()
    if mode == "proxy":
        s = socket.create_connection(("127.0.0.1", PROXY_PORT))
        s.sendall(b"CONNECT bench.test:%d HTTP/1.1\r\nHost: bench.test\r\n\r\n" % port)
        head = b""
        while b"\r\n\r\n" not in head:
            b = s.recv(1 if HEAD_READ == "bytewise" else 4096)
            if not b:
                raise SystemExit("proxy closed: %r" % head)
            head += b
        if not head.endswith(b"\r\n\r\n"):  # nothing follows the answer before the client's first byte here
            raise SystemExit("bytes past the answer: %r" % head)
        if not head.startswith(b"HTTP/1.1 200"):
            raise SystemExit("proxy refused: %r" % head)
    else:
        s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s, t0


def latency(mode, port):
    s, t0 = connect(mode, port)
    with s:
        s.sendall(b"L")
        if s.recv(1) != b"!":
            raise SystemExit("no answer")
        return (time.perf_counter() - t0) * 1000.0


def bulk(mode, port, size):
    s, _ = connect(mode, port)
    with s:
        t0 = time.perf_counter()
        s.sendall(b"B" + size.to_bytes(8, "big"))
        got = 0
        buf = bytearray(1 << 20)
        while True:
            n = s.recv_into(buf)
            if not n:
                break
            got += n
        dt = time.perf_counter() - t0
    if got != size:
        raise SystemExit("short read %d" % got)
    return size / dt / 1e6


def on_host(what):
    """A direct sample, taken by the host (outside the launch) at this point of the sequence."""
    sys.stdout.write(what + "\n")
    sys.stdout.flush()
    return float(sys.stdin.readline())


def client(modes, port, conns, size, bulks):
    out = {m: {"latency_ms": [], "mb_s": []} for m in modes}
    for i in range(conns):
        for m in (modes if i % 2 == 0 else list(reversed(modes))):
            out[m]["latency_ms"].append(on_host("L") if m == "direct" else latency(m, port))
    on_host("C")
    for i in range(bulks):
        for m in (modes if i % 2 == 0 else list(reversed(modes))):
            out[m]["mb_s"].append(on_host("B") if m == "direct" else bulk(m, port, size))
    on_host("C")
    return out


def relay_cpu_ticks(root):
    """utime + stime of the launch's relay: the aasm-launch child of aasm-launch left in our network namespace."""
    ours = os.readlink("/proc/self/ns/net")
    tree, stats = {root}, {}
    for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open("/proc/%d/stat" % pid) as f:
                st = f.read()
        except OSError:
            continue
        comm, rest = st[st.index("(") + 1:st.rindex(")")], st[st.rindex(")") + 2:].split()
        stats[pid] = (comm, int(rest[1]), int(rest[11]) + int(rest[12]))
    grew = True
    while grew:
        grew = False
        for pid, (comm, ppid, _) in stats.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                grew = True
    for pid in tree:
        comm, ppid, ticks = stats.get(pid, ("", 0, 0))
        if comm == "aasm-launch" and stats.get(ppid, ("",))[0] == "aasm-launch":
            try:
                if os.readlink("/proc/%d/ns/net" % pid) == ours:
                    return ticks
            except OSError:
                pass
    raise SystemExit("no relay process found under pid %d" % root)


def container_relay_cpu_ticks(root):
    """utime + stime of the container's transport relay (under the launching JVM), with its reaped carriers."""
    tree, stats = {root}, {}
    for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open("/proc/%d/stat" % pid) as f:
                st = f.read()
        except OSError:
            continue
        comm, rest = st[st.index("(") + 1:st.rindex(")")], st[st.rindex(")") + 2:].split()
        stats[pid] = (comm, int(rest[1]), sum(int(x) for x in rest[11:15]))
    grew = True
    while grew:
        grew = False
        for pid, (comm, ppid, _) in stats.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                grew = True
    for pid in tree:
        comm, ppid, ticks = stats.get(pid, ("", 0, 0))
        if comm.startswith("aasm-container-") and stats.get(ppid, ("",))[0] != comm:  # comm keeps 15 characters
            try:
                with open("/proc/%d/cmdline" % pid, "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if argv[0].endswith(b"/aasm-container-relay") and argv[1:2] == [b"relay"]:
                return ticks
    raise SystemExit("no container relay found under pid %d" % root)


def policy(path, scratch, port, loopback=True):
    reads = ", ".join(p for p in ["/usr", "/bin", "/lib", "/lib64", "/etc", scratch] if os.path.exists(p))
    grants = "{host: bench.test, port: %d}" % port + (", {host: loopback, port: %d}" % port if loopback else "")
    with open(path, "w") as f:
        f.write("apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  read: {allow: [%s]}\n" % reads
                + "network:\n  egress: {allow: [%s]}\n" % grants
                + "  name_resolution: {hosts: {bench.test: 127.0.0.1}}\n")


def own_ticks(pid):
    """utime + stime of one process (all its threads): the launching JVM, where the proxy runs."""
    with open("/proc/%d/stat" % pid) as f:
        st = f.read()
    rest = st[st.rindex(")") + 2:].split()
    return int(rest[11]) + int(rest[12])


def launch(home, pol, isolation, backend, here, port, conns, size, bulks, modes, ticks_of):
    """One launch of the client, answering its direct-sample requests; its samples and the relay's CPU ticks."""
    cmd = [os.path.join(home, "bin", "aasm"), "run", "exec", "--isolation", isolation, "--isolation-backend",
           backend, "--policy", pol, "--", "/usr/bin/python3", here, "client", str(port), str(conns),
           str(size), str(bulks), ",".join(modes), HEAD_READ]
    err = tempfile.TemporaryFile()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                         env=dict(os.environ, PATH="/usr/bin:/bin"), text=True)
    inside = None
    ticks, jvm = [], []
    for line in p.stdout:
        if line.strip() in ("L", "B", "C"):
            if line.strip() == "C":
                ticks.append(ticks_of(p.pid))
                jvm.append(own_ticks(p.pid))
                v = 0.0
            else:
                v = latency("direct", port) if line.strip() == "L" else bulk("direct", port, size)
            p.stdin.write("%r\n" % v)
            p.stdin.flush()
        elif line.startswith("{"):
            inside = json.loads(line)
    if p.wait() != 0 or inside is None:
        err.seek(0)
        raise SystemExit("launch failed: " + err.read().decode(errors="replace"))
    return inside, ticks[1] - ticks[0], jvm[1] - jvm[0]


class Arms:
    """What one distribution's launches measured, accumulated over the rounds."""

    def __init__(self, container):
        self.arms = ("direct", "relay", "proxy") + (("container",) if container else ())
        self.acc = {m: {"latency_ms": [], "mb_s": []} for m in self.arms}
        self.ratios = {m: [] for m in self.arms[1:]}
        self.relay_ticks, self.relayed, self.c_ticks, self.jvm_ticks, self.proxied = 0, 0, 0, 0, 0
        self.c_jvm_ticks = 0
        self.added_per_launch = []  # proxy - direct connect medians of each launch: the spread between launches


def measure(a, home, pol, cpol, here, port, conns, size, bulks, container):
    inside, ticks, jvm = launch(home, pol, "process", "aasm-native", here, port, conns, size, bulks,
                                ["direct", "relay", "proxy"], relay_cpu_ticks)
    for m in ("direct", "relay", "proxy"):
        for k in ("latency_ms", "mb_s"):
            a.acc[m][k] += inside[m][k]
    for m in ("relay", "proxy"):
        a.ratios[m] += [x / d for x, d in zip(inside[m]["mb_s"], inside["direct"]["mb_s"])]
    a.added_per_launch.append(statistics.median(inside["proxy"]["latency_ms"])
                              - statistics.median(inside["direct"]["latency_ms"]))
    a.relay_ticks += ticks
    a.relayed += 2 * bulks * size  # the relay and the proxy arms both cross the relay
    a.jvm_ticks += jvm
    a.proxied += bulks * size
    if container:
        inside, ticks, jvm = launch(home, cpol, "container", "aasm-container", here, port, conns, size, bulks,
                                  ["direct", "proxy"], container_relay_cpu_ticks)
        for k in ("latency_ms", "mb_s"):
            a.acc["container"][k] += inside["proxy"][k]
            a.acc["direct"][k] += inside["direct"][k]
        a.ratios["container"] += [x / d for x, d in zip(inside["proxy"]["mb_s"], inside["direct"]["mb_s"])]
        a.c_ticks += ticks
        a.c_jvm_ticks += jvm


def summarise(a, rounds, conns, mib, bulks, size, container):
    summary = {"load_average": os.getloadavg(), "rounds": rounds, "conns_per_round": conns, "bulk_mib": mib,
               "bulks_per_round": bulks, "connect_answer_read": HEAD_READ}
    for m, v in a.acc.items():
        summary[m] = {"latency_ms_median": statistics.median(v["latency_ms"]),
                      "latency_ms_p90": sorted(v["latency_ms"])[int(0.9 * (len(v["latency_ms"]) - 1))],
                      "mb_s_median": statistics.median(v["mb_s"]), "samples": len(v["latency_ms"])}
    d, rl, px = summary["direct"], summary["relay"], summary["proxy"]
    summary["added_connect_ms_proxy_vs_direct"] = px["latency_ms_median"] - d["latency_ms_median"]
    summary["added_connect_ms_proxy_vs_relay"] = px["latency_ms_median"] - rl["latency_ms_median"]
    summary["added_connect_ms_proxy_vs_direct_per_launch"] = [round(x, 3) for x in a.added_per_launch]
    summary["throughput_ratio_proxy_vs_direct"] = px["mb_s_median"] / d["mb_s_median"]
    summary["throughput_ratio_relay_vs_direct"] = rl["mb_s_median"] / d["mb_s_median"]
    summary["paired_throughput_ratio_relay_vs_direct"] = statistics.median(a.ratios["relay"])
    summary["paired_throughput_ratio_proxy_vs_direct"] = statistics.median(a.ratios["proxy"])
    tck = os.sysconf("SC_CLK_TCK")
    summary["relay_cpu_ms_per_gib"] = a.relay_ticks * 1000.0 / tck / (a.relayed / (1 << 30))
    summary["supervisor_cpu_ms_per_gib_of_proxy_arm"] = a.jvm_ticks * 1000.0 / tck / (a.proxied / (1 << 30))
    if container:
        c = summary["container"]
        summary["added_connect_ms_container_vs_direct"] = c["latency_ms_median"] - d["latency_ms_median"]
        summary["added_connect_ms_container_vs_native_proxy"] = c["latency_ms_median"] - px["latency_ms_median"]
        summary["paired_throughput_ratio_container_vs_direct"] = statistics.median(a.ratios["container"])
        summary["container_relay_cpu_ms_per_gib"] = (a.c_ticks * 1000.0 / tck
                                                     / (rounds * bulks * size / (1 << 30)))
        # the launching JVM during the container's bulk phase: the proxy's copy, unless it handed the tunnel off
        summary["supervisor_cpu_ms_per_gib_of_container_arm"] = (a.c_jvm_ticks * 1000.0 / tck
                                                                 / (rounds * bulks * size / (1 << 30)))
    return summary


def run(home, rounds, conns, mib, bulks, container, compare=None):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    threading.Thread(target=serve, args=(sock,), daemon=True).start()
    size = mib << 20
    scratch = tempfile.mkdtemp(prefix="aasm-med-bench-")
    here = os.path.abspath(__file__)
    pol = os.path.join(scratch, "policy.yaml")
    policy(pol, os.path.dirname(here), port)
    cpol = os.path.join(scratch, "container-policy.yaml")
    policy(cpol, os.path.dirname(here), port, loopback=False)
    homes = [home] + ([compare] if compare else [])
    arms = {h: Arms(container) for h in homes}
    for r in range(rounds):
        for h in (homes if r % 2 == 0 else list(reversed(homes))):
            measure(arms[h], h, pol, cpol, here, port, conns, size, bulks, container)
    if not compare:
        print(json.dumps(summarise(arms[home], rounds, conns, mib, bulks, size, container), indent=2))
    else:
        print(json.dumps({h: summarise(arms[h], rounds, conns, mib, bulks, size, container) for h in homes},
                         indent=2))


if __name__ == "__main__":
    if sys.argv[1] == "client":
        port, conns, size, bulks = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        modes = sys.argv[6].split(",") if len(sys.argv) > 6 else ["direct", "relay", "proxy"]
        HEAD_READ = sys.argv[7] if len(sys.argv) > 7 else HEAD_READ
        print(json.dumps(client(modes, port, conns, size, bulks)))
    elif sys.argv[1] == "run":
        args = sys.argv[2:]
        opts = {"--rounds": 5, "--conns": 200, "--bulk": 256, "--bulks": 3, "--container": 0, "--compare": None,
                "--head": HEAD_READ}
        home = args[0]
        for i in range(1, len(args), 2):
            opts[args[i]] = args[i + 1] if args[i] in ("--compare", "--head") else int(args[i + 1])
        if opts["--head"] not in ("buffered", "bytewise"):
            raise SystemExit("--head is buffered or bytewise, not %r" % opts["--head"])
        HEAD_READ = opts["--head"]  # the client in the launch gets it as an argument
        run(home, opts["--rounds"], opts["--conns"], opts["--bulk"], opts["--bulks"], opts["--container"] == 1,
            opts["--compare"])
    else:
        raise SystemExit(__doc__)
