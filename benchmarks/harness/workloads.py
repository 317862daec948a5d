"""Workload definitions and the per-run workspace: a read-only tree (P3 traversal + workload scripts) and
one writable scratch dir. Sizes: full mode per METHODOLOGY.md section 2; quick mode is tiny."""
import os, random, shutil

PY = "/usr/bin/python3"  # the system interpreter: lives under /usr, which every confined arm may read
SIZES = {
    "full": {"dirs": 40, "files": 50, "general": 4000, "small": 2000, "spawn": 200, "tcp": 200, "cpu": 3000000,
             "throughput": 20},
    "quick": {"dirs": 4, "files": 5, "general": 100, "small": 50, "spawn": 10, "tcp": 10, "cpu": 10000,
              "throughput": 3},
}
ORDER = ["startup_nop", "general_python", "repo_traversal", "many_small_files", "process_spawn", "tcp_loopback",
         "cpu_loop", "throughput"]


class Workspace:
    def __init__(self, root, bench_dir, mode):
        self.root = root
        self.ro = os.path.join(root, "ro")
        self.tree = os.path.join(self.ro, "tree")
        self.bin = os.path.join(self.ro, "bin")
        self.scratch = os.path.join(root, "scratch")
        self.size = SIZES[mode]
        os.makedirs(self.scratch)
        shutil.copytree(os.path.join(bench_dir, "workloads"), self.bin)
        rnd = random.Random(7)
        words = ["alpha", "beta", "gamma", "delta", "import", "class", "return", "value", "index", "module"]
        for d in range(self.size["dirs"]):
            sub = os.path.join(self.tree, "pkg%02d" % (d % 8), "mod%03d" % d)
            os.makedirs(sub)
            for f in range(self.size["files"]):
                body = " ".join(rnd.choice(words) for _ in range(300))
                if rnd.random() < 0.05:
                    body += " needle"
                with open(os.path.join(sub, "file%03d.txt" % f), "w") as fh:
                    fh.write(body + "\n")

    def argv(self, workload, port):
        s, b = self.size, self.bin
        return {
            "startup_nop": ["/bin/true"],
            "general_python": [PY, os.path.join(b, "general.py"), self.scratch, str(s["general"])],
            "repo_traversal": ["/bin/sh", os.path.join(b, "traverse.sh"), self.tree],
            "many_small_files": [PY, os.path.join(b, "small_files.py"), self.scratch, str(s["small"])],
            "process_spawn": ["/bin/sh", os.path.join(b, "spawn.sh"), str(s["spawn"])],
            "tcp_loopback": [PY, os.path.join(b, "tcp_client.py"), str(port), str(s["tcp"])],
            "cpu_loop": [PY, os.path.join(b, "cpu.py"), str(s["cpu"])],
            "throughput": ["/bin/true"],
        }[workload]
