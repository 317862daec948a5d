"""The resident kernel of the `resident` arm (METHODOLOGY.md amendment 5): started once per run with
`aasm daemon start` in a runtime directory of the run's own, so no other user's or developer's kernel can
answer the arm, and stopped at the end. Its CPU time and resident set are read from /proc, which is how the
harness reports kernel CPU per launch and the kernel's RSS (the kernel allows no attach: nothing is asked of
the JVM itself)."""
import os, re, subprocess, time

CLK_TCK = os.sysconf("SC_CLK_TCK")
_PID = re.compile(r"running pid=(\d+) ")


def cpu_ms(stat_text):
    """utime + stime of one /proc/PID/stat text, in ms. The command name (field 2) may hold spaces and
    parentheses, so the fields are counted after its last ')'."""
    fields = stat_text[stat_text.rindex(")") + 2:].split()
    # fields[0] is field 3 (state); utime and stime are fields 14 and 15
    return (int(fields[11]) + int(fields[12])) * 1000.0 / CLK_TCK


def status_kib(status_text, key):
    for line in status_text.splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return None


def pid_of(status_line):
    """The kernel's pid in `aasm daemon status` output (`running pid=N uptime=...`), or None."""
    m = _PID.search(status_line or "")
    return int(m.group(1)) if m else None


class ResidentKernel:
    def __init__(self, aasm_bin, env, runtime_dir, log):
        self.aasm, self.log = aasm_bin, log
        os.makedirs(runtime_dir, mode=0o700, exist_ok=True)
        self.env = dict(env, XDG_RUNTIME_DIR=runtime_dir)
        self.env.pop("AASM_CLIENT", None)
        self.pid = None

    def start(self):
        """Starts the kernel; returns (ok, reason)."""
        with open(self.log, "ab") as err:
            p = subprocess.run([self.aasm, "daemon", "start"], env=self.env, cwd="/", stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=err, timeout=180)
        out = p.stdout.decode(errors="replace")
        self.pid = pid_of(out)
        if p.returncode != 0 or not self.pid:
            return False, "aasm daemon start exited %d: %s" % (p.returncode, out.strip()[-200:] or "no output")
        return True, "resident kernel pid %d" % self.pid

    def served(self):
        """Run requests the kernel accepted so far, from its request log (docs/resident.md, "Request log");
        rotated files included."""
        n = 0
        for name in sorted(os.listdir(self.env["XDG_RUNTIME_DIR"])):
            if name.startswith("aasm-requests.log"):
                with open(os.path.join(self.env["XDG_RUNTIME_DIR"], name), errors="replace") as f:
                    n += sum(1 for line in f if '"event":"accepted"' in line and '"kind":"R"' in line)
        return n

    def wait_served(self, count, timeout_s=10.0):
        """True once the log shows count run requests: a line is written when its connection ends, which is a
        moment after the client has exited."""
        deadline = time.time() + timeout_s
        while self.served() < count:
            if time.time() > deadline:
                return False
            time.sleep(0.1)
        return True

    def cpu_ms(self):
        with open("/proc/%d/stat" % self.pid) as f:
            return cpu_ms(f.read())

    def memory(self):
        """{rss_mib, hwm_mib, threads} of the kernel now (VmHWM: its peak resident set since start)."""
        with open("/proc/%d/status" % self.pid) as f:
            text = f.read()
        m = {"rss_mib": status_kib(text, "VmRSS") / 1024.0, "hwm_mib": status_kib(text, "VmHWM") / 1024.0,
             "threads": status_kib(text, "Threads")}
        # Beside RSS (the goal's unit): its anonymous part (only swap can take it; the CDS archive's pages that
        # were written count here) and the proportional set (file pages shared with other processes divided).
        anon = status_kib(text, "RssAnon")
        m["anon_mib"] = anon / 1024.0 if anon is not None else None
        try:
            with open("/proc/%d/smaps_rollup" % self.pid) as f:
                pss = status_kib(f.read(), "Pss")
            m["pss_mib"] = pss / 1024.0 if pss is not None else None
        except OSError:
            m["pss_mib"] = None
        return m

    def stop(self):
        if not self.pid:
            return
        subprocess.run([self.aasm, "daemon", "stop"], env=self.env, cwd="/", stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        for _ in range(100):
            if not os.path.exists("/proc/%d" % self.pid):
                break
            time.sleep(0.1)
        else:  # our own child's session: ended by its pid, never by name
            try:
                os.kill(self.pid, 9)
            except ProcessLookupError:
                pass
        self.pid = None
