"""The warm in-JVM arm: compiles java/*.java against the distribution's exported API and keeps one JVM running,
which embeds the distribution (its bundle set and conf/) and calls the kernel through ports only."""
import fcntl, glob, os, shutil, subprocess


def classpath(dist, snapshot_dir):
    """The two jars an embedding application needs on its class path: the OSGi framework and the exported
    ports API; copied to a snapshot dir so that a concurrent rebuild cannot change them under a running
    benchmark (the bundles themselves are copied into the framework's cache when installed)."""
    if not dist or not os.path.isdir(os.path.join(dist, "bundle")):
        raise RuntimeError("distribution not found at %s (build it: mvn -q -DskipTests install)" % dist)
    jars = [os.path.join(dist, "bundle", "ports.jar")] + glob.glob(os.path.join(dist, "lib", "org.apache.felix.framework*.jar"))
    missing = [j for j in jars if not os.path.exists(j)]
    if missing or len(jars) < 2:
        raise RuntimeError("distribution at %s lacks %s" % (dist, missing or "lib/org.apache.felix.framework.jar"))
    os.makedirs(snapshot_dir, exist_ok=True)
    copied = []
    for j in jars:
        dst = os.path.join(snapshot_dir, os.path.basename(j))
        shutil.copyfile(j, dst)
        copied.append(dst)
    return ":".join(copied)


class Driver:
    def __init__(self, bench_dir, dist, policy, work, log_path, env, container_policy=None):
        cls_dir = os.path.join(work, "driver-classes")
        cp = classpath(dist, os.path.join(work, "driver-jars"))
        srcs = sorted(glob.glob(os.path.join(bench_dir, "java", "io", "aasm", "bench", "*.java")))
        p = subprocess.run(["javac", "-nowarn", "-d", cls_dir, "-cp", cp] + srcs, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("javac failed: " + (p.stderr.strip().splitlines() or ["?"])[0])
        req_r, self._req_w = os.pipe()
        self._resp_r, resp_w = os.pipe()
        # move the child's ends above 9, so that placing them on fds 3 and 4 cannot clobber one another
        req_r, resp_w = _high(req_r), _high(resp_w)
        # bash, not sh: dash cannot redirect descriptors above 9
        shell = 'exec "$@" 3<&%d 4>&%d %d<&- %d>&-' % (req_r, resp_w, req_r, resp_w)
        self._log = open(log_path, "ab")
        self.proc = subprocess.Popen(["/bin/bash", "-c", shell, "bash", "java", "-cp", cls_dir + ":" + cp,
                                      "io.aasm.bench.BenchDriver", dist, policy, os.path.join(work, "driver")]
                                     + ([container_policy] if container_policy else []),
                                     pass_fds=(req_r, resp_w),
                                     stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log, env=env)
        os.close(req_r)
        os.close(resp_w)
        self._out = os.fdopen(self._req_w, "w", buffering=1)
        self._in = os.fdopen(self._resp_r, "r")
        first = self._in.readline().strip()
        if first != "ready":
            self.close()
            raise RuntimeError("driver did not start (see %s)" % log_path)

    def run(self, mode, count, cwd, argv):
        """Per-launch wall times (ms) and the worst exit status; raises on a driver-side error."""
        self._out.write("\t".join(["run", mode, str(count), cwd] + list(argv)) + "\n")
        line = self._in.readline().rstrip("\n")
        parts = line.split("\t")
        if parts[0] != "ok":
            raise RuntimeError("driver: " + (line or "no answer (driver died)"))
        return [float(x) for x in parts[2].split(",")], int(parts[1])

    def close(self):
        try:
            self._out.write("quit\n")
            self._out.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self._log.close()


def _high(fd):
    new = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return new
