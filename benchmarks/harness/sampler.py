"""One sample = fork, exec the arm's launcher, reap with os.wait4 (wall time + rusage of the whole tree).

Peak RSS comes from the small rusage-exec helper when it could be compiled (see rusage_exec.c for why);
otherwise from the harness's own wait4, whose floor is the harness's resident set (stated in the results)."""
import os, shutil, signal, subprocess, tempfile, threading, time

HELPER_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rusage_exec.c")


def build_helper(work_dir):
    """Path of the compiled helper, or None (with gcc/cc absent, P6 falls back to the harness's wait4)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None
    out = os.path.join(work_dir, "rusage-exec")
    p = subprocess.run([cc, "-O2", "-o", out, HELPER_SRC], capture_output=True)
    return out if p.returncode == 0 else None


class Sampler:
    def __init__(self, helper):
        self.helper = helper
        fd, self._rss_file = tempfile.mkstemp(prefix="aasm-bench-rss-")
        os.close(fd)

    def run(self, argv, env, cwd, timeout_s=900, stderr_path=None):
        if self.helper:
            argv = [self.helper, self._rss_file] + argv
            with open(self._rss_file, "w"):
                pass
        err = open(stderr_path, "ab") if stderr_path else subprocess.DEVNULL
        try:
            t0 = time.perf_counter_ns()
            p = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=err)
            timer = threading.Timer(timeout_s, lambda: _kill(p.pid))
            timer.start()
            try:
                _, status, ru = os.wait4(p.pid, 0)
            finally:
                timer.cancel()
            wall = (time.perf_counter_ns() - t0) / 1e6
            p.returncode = os.waitstatus_to_exitcode(status)  # reaped already; keeps Popen from waiting again
        finally:
            if stderr_path:
                err.close()
        rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
        rss_kib = ru.ru_maxrss
        if self.helper:
            with open(self._rss_file) as f:
                text = f.read().strip()
            rss_kib = int(text) if text else None
        return {"wall_ms": wall, "rc": rc, "utime_s": ru.ru_utime, "stime_s": ru.ru_stime,
                "rss_mib": rss_kib / 1024.0 if rss_kib is not None else None}

    def close(self):
        try:
            os.unlink(self._rss_file)
        except OSError:
            pass


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
