#!/usr/bin/env python3
"""Transport mediation figures (docs/mediation.md, docs/benchmarks.md): paired, in one run.

  bench.py run AASM_HOME [--rounds R] [--conns N] [--bulk MIB] [--container 1]

Arms, all against one server on 127.0.0.1:P that this script owns:
  direct  - the client unconfined on the host (plain loopback): the baseline every figure is against;
  relay   - the client inside an aasm-native launch, through a granted loopback port (relay only);
  proxy   - the same launch, through the supervisor's proxy (relay + proxy, HTTP CONNECT by name).
  container - with --container 1: the client inside an aasm-container launch, through the container's transport
            relay (adapter-container RELAY.md) and the same proxy (a container cannot have a loopback grant).
relay and proxy alternate connection by connection inside each launch; direct runs right before each launch,
the container launch right after it.
Connect latency = socket() to the 1-byte answer (plus the CONNECT exchange for proxy: what a client waits);
throughput = one bulk download per sample. Medians per arm; the load average is recorded with the figures.
"""
import json, os, socket, statistics, subprocess, sys, tempfile, threading, time

PROXY_PORT = 3128


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
        while not head.endswith(b"\r\n\r\n"):
            b = s.recv(1)
            if not b:
                raise SystemExit("proxy closed: %r" % head)
            head += b
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


def client(modes, port, conns, size, bulks):
    out = {m: {"latency_ms": [], "mb_s": []} for m in modes}
    for i in range(conns):
        for m in (modes if i % 2 == 0 else list(reversed(modes))):
            out[m]["latency_ms"].append(latency(m, port))
    for i in range(bulks):
        for m in (modes if i % 2 == 0 else list(reversed(modes))):
            out[m]["mb_s"].append(bulk(m, port, size))
    return out


def policy(path, scratch, port, loopback=True):
    reads = ", ".join(p for p in ["/usr", "/bin", "/lib", "/lib64", "/etc", scratch] if os.path.exists(p))
    grants = "{host: bench.test, port: %d}" % port + (", {host: loopback, port: %d}" % port if loopback else "")
    with open(path, "w") as f:
        f.write("apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  read: {allow: [%s]}\n" % reads
                + "network:\n  egress: {allow: [%s]}\n" % grants
                + "  name_resolution: {hosts: {bench.test: 127.0.0.1}}\n")


def launch(home, pol, backend, isolation, here, port, conns, size, modes, scratch):
    out = os.path.join(scratch, "round.json")
    cmd = [os.path.join(home, "bin", "aasm"), "run", "exec", "--isolation", isolation, "--isolation-backend",
           backend, "--policy", pol, "--", "/usr/bin/python3", here, "client", str(port), str(conns), str(size),
           ",".join(modes)]
    with open(out, "w") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, env=dict(os.environ, PATH="/usr/bin:/bin"))
    if p.returncode != 0:
        raise SystemExit("launch failed: " + p.stderr.decode(errors="replace"))
    with open(out) as f:
        return json.load(f)


def run(home, rounds, conns, mib, container):
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
    arms = ("direct", "relay", "proxy") + (("container",) if container else ())
    acc = {m: {"latency_ms": [], "mb_s": []} for m in arms}
    load = [os.getloadavg()]
    for r in range(rounds):
        d = client(["direct"], port, conns, size, 3)
        for k in ("latency_ms", "mb_s"):
            acc["direct"][k] += d["direct"][k]
        inside = launch(home, pol, "aasm-native", "process", here, port, conns, size, ["relay", "proxy"], scratch)
        for m in ("relay", "proxy"):
            for k in ("latency_ms", "mb_s"):
                acc[m][k] += inside[m][k]
        if container:
            inside = launch(home, cpol, "aasm-container", "container", here, port, conns, size, ["proxy"], scratch)
            for k in ("latency_ms", "mb_s"):
                acc["container"][k] += inside["proxy"][k]
    load.append(os.getloadavg())
    summary = {"load_average": load, "rounds": rounds, "conns_per_round": conns, "bulk_mib": mib}
    for m, v in acc.items():
        summary[m] = {"latency_ms_median": statistics.median(v["latency_ms"]),
                      "latency_ms_p90": sorted(v["latency_ms"])[int(0.9 * (len(v["latency_ms"]) - 1))],
                      "mb_s_median": statistics.median(v["mb_s"]), "samples": len(v["latency_ms"])}
    d, rl, px = summary["direct"], summary["relay"], summary["proxy"]
    summary["added_connect_ms_proxy_vs_direct"] = px["latency_ms_median"] - d["latency_ms_median"]
    summary["added_connect_ms_proxy_vs_relay"] = px["latency_ms_median"] - rl["latency_ms_median"]
    summary["throughput_ratio_proxy_vs_direct"] = px["mb_s_median"] / d["mb_s_median"]
    summary["throughput_ratio_relay_vs_direct"] = rl["mb_s_median"] / d["mb_s_median"]
    if container:
        c = summary["container"]
        summary["added_connect_ms_container_vs_direct"] = c["latency_ms_median"] - d["latency_ms_median"]
        summary["added_connect_ms_container_vs_native_proxy"] = c["latency_ms_median"] - px["latency_ms_median"]
        summary["throughput_ratio_container_vs_direct"] = c["mb_s_median"] / d["mb_s_median"]
        summary["throughput_ratio_container_vs_native_proxy"] = c["mb_s_median"] / px["mb_s_median"]
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    if sys.argv[1] == "client":
        port, conns, size = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        modes = sys.argv[5].split(",") if len(sys.argv) > 5 else ["relay", "proxy"]
        print(json.dumps(client(modes, port, conns, size, 3)))
    elif sys.argv[1] == "run":
        args = sys.argv[2:]
        opts = {"--rounds": 5, "--conns": 200, "--bulk": 256, "--container": 0}
        home = args[0]
        for i in range(1, len(args), 2):
            opts[args[i]] = int(args[i + 1])
        run(home, opts["--rounds"], opts["--conns"], opts["--bulk"], opts["--container"] == 1)
    else:
        raise SystemExit(__doc__)
