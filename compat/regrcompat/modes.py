"""The three ways one regrtest command is run: unconfined, confined cold, confined through a resident kernel.

Every mode gets the same program environment (exactly the four names the policy delegates, with the same
values), the same working directory layout and the same regrtest command line. A confined run counts
only when its report says what happened: stage post_run, posture ready, backend aasm-native; a resident
run only when the kernel's served-connections count moved.
"""
import json
import os
import re
import signal
import subprocess

DELEGATED = ("PATH", "HOME", "LANG", "TERM")


class RunInvalid(RuntimeError):
    """The run was not what it claims to be (not confined, not resident, did not finish)."""


def program_env(home):
    return {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TERM": "dumb"}


def aasm_env(home, extra):
    """The caller's environment (aasm needs Java and its cache), with the delegated names as the control's."""
    env = dict(os.environ)
    env.setdefault("XDG_CACHE_HOME", os.path.join(os.path.expanduser("~"), ".cache"))
    env.pop("AASM_CLIENT", None)
    env.update(program_env(home))
    env.update(extra)
    return env


def default_signals():
    """In the child before exec: every disposition default, nothing blocked, as aasm-launch gives the program.

    A harness started in the background of a shell inherits SIGINT and SIGQUIT ignored; Python then never
    installs its KeyboardInterrupt handler, and test_signal fails unconfined only.
    """
    for s in signal.valid_signals():
        if s not in (signal.SIGKILL, signal.SIGSTOP):
            try:
                signal.signal(s, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def execute(cmd, cwd, env, log_path, timeout):
    """Runs cmd in its own session, output to log_path; on timeout the whole session is killed."""
    with open(log_path, "wb") as log:
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True, preexec_fn=default_signals)
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            for sig, grace in ((signal.SIGTERM, 15), (signal.SIGKILL, 15)):
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    p.wait(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    continue
            raise RunInvalid(f"{' '.join(cmd[:3])}... did not finish within {timeout} s (killed)")


class Unconfined:
    name = "unconfined"

    def run(self, regr_argv, work, timeout):
        return execute(regr_argv, work.project, {**program_env(work.home)}, work.log, timeout)


class Cold:
    name = "cold"

    def __init__(self, aasm_home, policy):
        self.aasm = os.path.join(aasm_home, "bin", "aasm")
        self.policy = policy

    def command(self, regr_argv, work):
        return [self.aasm, "run", "exec", "--isolation", "auto", "--isolation-backend", "aasm-native",
                "--policy", self.policy, "--workdir", work.project, "--report", "json", "--report-file",
                work.report, "--"] + regr_argv

    def env(self, work):
        return aasm_env(work.home, {"AASM_CLIENT": "off"})

    def run(self, regr_argv, work, timeout):
        code = execute(self.command(regr_argv, work), work.project, self.env(work), work.log, timeout)
        check_report(work.report, self.name, code)
        return code


class Resident(Cold):
    """A kernel of its own (private runtime directory), started before and stopped after the run."""
    name = "resident"

    def __init__(self, aasm_home, policy, runtime_dir):
        super().__init__(aasm_home, policy)
        self.runtime_dir = runtime_dir

    def env(self, work):
        return aasm_env(work.home, {"XDG_RUNTIME_DIR": self.runtime_dir})

    def daemon(self, work, verb):
        r = subprocess.run([self.aasm, "daemon", verb], cwd=work.root, env=self.env(work), capture_output=True,
                           text=True, timeout=180)
        return r.returncode, r.stdout + r.stderr

    def served(self, work):
        code, out = self.daemon(work, "status")
        m = re.search(r"connections=(\d+)", out)
        if code != 0 or not m:
            raise RunInvalid(f"resident: no kernel answers ({out.strip()})")
        return int(m.group(1))

    def run(self, regr_argv, work, timeout):
        os.makedirs(self.runtime_dir, mode=0o700, exist_ok=True)
        code, out = self.daemon(work, "start")
        if code != 0:
            raise RunInvalid(f"resident: aasm daemon start failed ({out.strip()})")
        try:
            before = self.served(work)
            code = super().run(regr_argv, work, timeout)
            # status itself is a connection: the run must have added at least one more
            if self.served(work) < before + 2:
                raise RunInvalid("resident: the kernel served no run (the client ran cold)")
            return code
        finally:
            self.daemon(work, "stop")


def check_report(path, mode, code):
    """The run counts only when aasm's own report says the program ran confined by aasm-native."""
    try:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        raise RunInvalid(f"{mode}: no readable report ({e}); aasm exit {code}")
    backend = (r.get("backend") or {}).get("id")
    if r.get("stage") != "post_run" or r.get("posture") != "ready" or backend != "aasm-native":
        raise RunInvalid(f"{mode}: the report says stage={r.get('stage')} posture={r.get('posture')} "
                         f"backend={backend}, not a confined run on aasm-native; aasm exit {code}")
