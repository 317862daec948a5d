#!/usr/bin/env python3
"""Drives one command on a real pseudo-terminal, as a user at a terminal would, and prints what happened
as JSON. Used by TerminalIT. Usage: pty_session.py SCENARIO -- COMMAND...

Scenarios:
  interactive  an interactive bash: line editing, window size (also after a resize), Ctrl-C, Ctrl-Z, exit 7
  inject       the command tries to inject keystrokes (TIOCSTI) into its terminal; afterwards the caller's
               side of the terminal is read for anything injected into it
"""
import fcntl, json, os, pty, select, signal, struct, sys, termios, time

def set_size(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

def read_until(fd, needle, timeout, log):
    end = time.time() + timeout
    buf = b""
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            log.append(chunk.decode(errors="replace"))
            if needle.encode() in buf:
                return buf.decode(errors="replace")
    return None

def main():
    scenario = sys.argv[1]
    cmd = sys.argv[3:]
    result = {"scenario": scenario}
    log = []
    pid, master = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    set_size(master, 33, 77)
    try:
        if scenario == "interactive":
            os.write(master, b"echo MARK-$((6*7))\n")  # the echoed line has no 42: only the output matches
            result["prompt"] = read_until(master, "MARK-42", 60, log) is not None
            os.write(master, b"stty size\n")
            result["size"] = bool(read_until(master, "33 77", 20, log))
            set_size(master, 40, 100)  # the kernel sends SIGWINCH to the terminal's foreground group
            # the change travels (client, frame, kernel, the boundary's own terminal) while the shell waits:
            # ask again until it arrived, for at most 20 s (one answer at 0.5 s failed on a machine at load 20)
            result["resized"] = False
            for _ in range(20):
                time.sleep(0.5)
                os.write(master, b"stty size\n")
                if read_until(master, "40 100", 1, log):
                    result["resized"] = True
                    break
            os.write(master, b"echo ab-editX\x7f-ok\n")  # DEL erases the X: line editing inside
            result["edited"] = bool(read_until(master, "ab-edit-ok", 20, log))
            # The job says it runs before the key goes: a key typed while the shell still reads its line would
            # interrupt the shell's line editor, not the job (a fixed pause assumed the job was there by then).
            # It prints from inside the foreground job, so the terminal is the job's when READY arrives.
            os.write(master, b"sh -c 'echo READY-$((1+1)); exec sleep 100'\n")
            running = read_until(master, "READY-2", 20, log) is not None
            os.write(master, b"\x03")  # Ctrl-C
            os.write(master, b"echo status=$?\n")
            result["interrupted"] = running and bool(read_until(master, "status=130", 20, log))
            os.write(master, b"sh -c 'echo READY-$((2+2)); exec sleep 100'\n")
            running = read_until(master, "READY-4", 20, log) is not None
            os.write(master, b"\x1a")  # Ctrl-Z: the job stops, the shell is back
            result["stopped"] = running and bool(read_until(master, "Stopped", 20, log))
            # Exit only once the killed job is gone: a `wait` right after the kill could still find it stopped
            # (bash had not reaped it yet), and bash then refuses `exit` with "There are stopped jobs".
            os.write(master, b"kill -9 %1; while kill -0 %1 2>/dev/null; do sleep 0.1; done; echo GONE-$((3+4))\n")
            read_until(master, "GONE-7", 20, log)
            os.write(master, b"exit 7\n")
        elif scenario == "inject":
            pass
        deadline = time.time() + 60
        status = None
        while time.time() < deadline:
            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                try:
                    chunk = os.read(master, 4096)
                    log.append(chunk.decode(errors="replace"))
                except OSError:
                    pass
            p, st = os.waitpid(pid, os.WNOHANG)
            if p == pid:
                status = st
                break
        if status is None:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        result["exit"] = os.waitstatus_to_exitcode(status)
        # What reached the caller's side of the terminal: anything injected into its input queue is readable
        # from the slave end (the caller's shell would have run it). The slave is re-opened by name.
        TIOCGPTN = 0x80045430  # the slave's number, from the master
        name = "/dev/pts/" + str(struct.unpack("I", fcntl.ioctl(master, TIOCGPTN, b"\0\0\0\0"))[0])
        s = os.open(name, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        attrs = termios.tcgetattr(s)
        attrs[3] &= ~termios.ICANON
        termios.tcsetattr(s, termios.TCSANOW, attrs)
        try:
            result["caller_input"] = os.read(s, 4096).decode(errors="replace")
        except BlockingIOError:
            result["caller_input"] = ""
        os.close(s)
    finally:
        result["transcript"] = "".join(log)[-4000:]
    print(json.dumps(result))

main()
