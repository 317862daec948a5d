#!/usr/bin/env python3
"""Granted loopback ports: the relay against injection (PROTOCOL.md "Injection"), paired, in one run.

  inject.py AASM_HOME [--rounds R] [--conns N] [--bulk MIB] [--bulks B] [--trips T] [--compare HOME2]

One server on 127.0.0.1:P that this script owns (bench.py's), one policy granting only loopback TCP port P (so
the Java side may choose injection). Every round launches the same client twice through `bin/aasm run exec`
(cold, AASM_CLIENT=off), once with -Daasm.native.loopback=relay and once with =inject (order swapped every other
round). Inside each launch the client alternates its own samples over the granted port with direct samples the
host takes at its request (bench.py's protocol), so each ratio compares samples taken next to each other:
  connect latency  - socket() to the 1-byte answer, per connection (medians);
  bulk throughput  - one download of MIB MiB per sample, paired ratio to the direct sample next to it;
  P5-like ratio    - T connect+request+answer+close round trips (the harness's P5 shape), timed inside the launch
                     against the same loop run directly on the host next to it (the launch itself excluded).
The relay process's CPU time over the bulk phase is reported per GiB (none moves through it under injection).
The load average is recorded with the figures.
With --compare HOME2 every round launches both distributions in both modes (the homes' order swapped every round,
the modes' every launch pair): two builds measured under the same load, figures printed per home.
"""
import json, os, socket, statistics, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the server, the client's primitives and the relay's CPU ticks)


def trips(port, n):
    t0 = time.perf_counter()
    for _ in range(n):
        bench.latency("relay", port)
    return (time.perf_counter() - t0) * 1000.0


def client(port, conns, size, bulks, n):
    out = {"latency_ms": [], "direct_latency_ms": [], "mb_s": [], "direct_mb_s": [], "trips_ms": [],
           "direct_trips_ms": []}
    for i in range(conns):
        pair = [("direct_latency_ms", lambda: bench.on_host("L")), ("latency_ms", lambda: bench.latency("relay", port))]
        for k, f in (pair if i % 2 == 0 else pair[::-1]):
            out[k].append(f())
    for i in range(5):
        pair = [("direct_trips_ms", lambda: bench.on_host("T")), ("trips_ms", lambda: trips(port, n))]
        for k, f in (pair if i % 2 == 0 else pair[::-1]):
            out[k].append(f())
    bench.on_host("C")
    for i in range(bulks):
        pair = [("direct_mb_s", lambda: bench.on_host("B")), ("mb_s", lambda: bench.bulk("relay", port, size))]
        for k, f in (pair if i % 2 == 0 else pair[::-1]):
            out[k].append(f())
    bench.on_host("C")
    return out


def launch(home, pol, mode, here, port, conns, size, bulks, n):
    cmd = [os.path.join(home, "bin", "aasm"), "run", "exec", "--isolation", "process", "--isolation-backend",
           "aasm-native", "--policy", pol, "--", "/usr/bin/python3", here, "client", str(port), str(conns), str(size),
           str(bulks), str(n)]
    env = dict(os.environ, PATH="/usr/bin:/bin", AASM_CLIENT="off",
               AASM_JAVA_OPTS=(os.environ.get("AASM_JAVA_OPTS", "") + " -Daasm.native.loopback=" + mode).strip())
    err = tempfile.TemporaryFile()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env, text=True)
    inside, ticks = None, []
    for line in p.stdout:
        w = line.strip()
        if w in ("L", "B", "C", "T"):
            v = 0.0
            if w == "C":
                ticks.append(bench.relay_cpu_ticks(p.pid))
            elif w == "L":
                v = bench.latency("direct", port)
            elif w == "T":
                v = trips(port, n)
            else:
                v = bench.bulk("direct", port, size)
            p.stdin.write("%r\n" % v)
            p.stdin.flush()
        elif line.startswith("{"):
            inside = json.loads(line)
    if p.wait() != 0 or inside is None:
        err.seek(0)
        raise SystemExit("launch failed (%s): %s" % (mode, err.read().decode(errors="replace")))
    return inside, ticks[1] - ticks[0]


def main(home, rounds, conns, mib, bulks, n, compare=None):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    threading.Thread(target=bench.serve, args=(sock,), daemon=True).start()
    size = mib << 20
    scratch = tempfile.mkdtemp(prefix="aasm-inject-bench-")
    here = os.path.abspath(__file__)
    pol = os.path.join(scratch, "policy.yaml")
    reads = ", ".join(p for p in ["/usr", "/bin", "/lib", "/lib64", "/etc", os.path.dirname(here)] if os.path.exists(p))
    with open(pol, "w") as f:
        f.write("apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  read: {allow: [%s]}\n" % reads
                + "network:\n  egress: {allow: [{host: loopback, port: %d}]}\n" % port)
    homes = [home] + ([compare] if compare else [])
    accs = {h: {m: {"lat": [], "dlat": [], "ratio": [], "mb": [], "dmb": [], "p5": [], "ticks": 0}
                for m in ("relay", "inject")} for h in homes}
    loads = []
    for r in range(rounds):
        for i, h in enumerate(homes if r % 2 == 0 else homes[::-1]):
            for m in (("relay", "inject") if (r + i) % 2 == 0 else ("inject", "relay")):
                inside, ticks = launch(h, pol, m, here, port, conns, size, bulks, n)
                a = accs[h][m]
                a["lat"] += inside["latency_ms"]
                a["dlat"] += inside["direct_latency_ms"]
                a["mb"] += inside["mb_s"]
                a["dmb"] += inside["direct_mb_s"]
                a["ratio"] += [x / d for x, d in zip(inside["mb_s"], inside["direct_mb_s"])]
                a["p5"] += [x / d for x, d in zip(inside["trips_ms"], inside["direct_trips_ms"])]
                a["ticks"] += ticks
        loads.append(os.getloadavg())
    tck = os.sysconf("SC_CLK_TCK")
    gib = rounds * bulks * size / (1 << 30)
    out = {}
    for h in homes:
        summary = {"load_average_after_each_round": loads, "rounds": rounds, "conns_per_launch": conns,
                   "bulk_mib": mib, "bulks_per_launch": bulks, "p5_trips": n}
        for m, a in accs[h].items():
            summary[m] = {"connect_ms_median": statistics.median(a["lat"]),
                          "direct_connect_ms_median": statistics.median(a["dlat"]),
                          "added_connect_ms": statistics.median(a["lat"]) - statistics.median(a["dlat"]),
                          "mb_s_median": statistics.median(a["mb"]),
                          "direct_mb_s_median": statistics.median(a["dmb"]),
                          "paired_throughput_ratios": sorted(round(x, 3) for x in a["ratio"]),
                          "paired_throughput_ratio_vs_direct": statistics.median(a["ratio"]),
                          "paired_p5_ratios": sorted(round(x, 3) for x in a["p5"]),
                          "paired_p5_ratio_vs_direct": statistics.median(a["p5"]),
                          "relay_cpu_ms_per_gib": a["ticks"] * 1000.0 / tck / gib}
        out[h] = summary
    print(json.dumps(out[home] if not compare else out, indent=2))


if __name__ == "__main__":
    if sys.argv[1] == "client":
        print(json.dumps(client(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]),
                                int(sys.argv[6]))))
    else:
        opts = {"--rounds": 4, "--conns": 100, "--bulk": 256, "--bulks": 3, "--trips": 200, "--compare": None}
        args = sys.argv[2:]
        for i in range(0, len(args), 2):
            opts[args[i]] = args[i + 1] if args[i] == "--compare" else int(args[i + 1])
        main(sys.argv[1], opts["--rounds"], opts["--conns"], opts["--bulk"], opts["--bulks"], opts["--trips"],
             opts["--compare"])
