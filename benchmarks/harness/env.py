"""Environment fingerprint (METHODOLOGY.md section 9) and the machine load at run time."""
import ctypes, os, platform, shutil, subprocess


def _out(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        return (p.stdout + p.stderr).strip()
    except (OSError, subprocess.TimeoutExpired) as e:
        return "unavailable (%s)" % e.__class__.__name__


def landlock_abi():
    """landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) = the ABI version, or -errno."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        abi = libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
        return abi if abi >= 0 else "unsupported (errno %d)" % ctypes.get_errno()
    except OSError as e:
        return "unknown (%s)" % e


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def fs_type(path):
    best, fstype = "", "unknown"
    try:
        with open("/proc/mounts") as f:
            for line in f:
                parts = line.split()
                mnt = parts[1]
                if (path == mnt or path.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best):
                    best, fstype = mnt, parts[2]
    except OSError:
        pass
    return fstype


def fingerprint(scratch, aasm_bin, repo, sandlock=None):
    """{@code sandlock}: the executable the sandlock arm uses (arms.sandlock), or None."""
    java = shutil.which("java")
    jdk = _out([java, "-version"]).splitlines()[0] if java else "absent"
    commit = _out(["git", "-C", repo, "rev-parse", "--short=12", "HEAD"])
    version = "0.1.0-SNAPSHOT"
    if aasm_bin and os.path.exists(aasm_bin):
        v = _out([aasm_bin, "--version"]).splitlines()
        version = v[-1] if v else version
    return {
        "os": platform.system(),
        "kernel": platform.release(),
        "machine": platform.machine(),
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "landlock_abi": landlock_abi(),
        "scratch_fs": fs_type(scratch),
        "jdk": jdk,
        "python": platform.python_version(),
        "aasm_version": "%s (git %s)" % (version, commit),
        "bwrap": _out(["bwrap", "--version"]) if shutil.which("bwrap") else "absent",
        "sandlock": "%s (sha256 %s)" % (_out([sandlock, "--version"]), _sha256(sandlock)[:16]) if sandlock else "absent",
    }


def _sha256(path):
    import hashlib
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        return "unreadable (%s)" % e.__class__.__name__


def load():
    return list(os.getloadavg())
