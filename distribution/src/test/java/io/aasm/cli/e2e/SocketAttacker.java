package io.aasm.cli.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of the resident kernel's socket written the way a hostile program would write its own
 * (it needs neither bin/aasm-client nor read access to the installation): Python 3 from /usr/bin,
 * which every policy that grants /usr can run. It sends one request with its own stdin, stdout and
 * stderr attached, prints the kernel's answer frame on stdout ({@code frame X 0}, {@code frame F text},
 * ...) and relays nothing else, so what the kernel decides is exactly what the test reads.
 */
final class SocketAttacker {
    static final Path PYTHON = Path.of("/usr/bin/python3");

    private static final String SCRIPT = String.join("\n",
            "import os, socket, struct, sys",
            "sock, kind, home = sys.argv[1], sys.argv[2], sys.argv[3]",
            "args = sys.argv[4:]",
            "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)",
            "s.connect(sock)",
            "payload = b''",
            "if kind == 'R':",
            "    parts = ['1', home, os.getcwd(), str(len(args))] + args + ['0']",
            "    payload = b''.join(p.encode() + b'\\0' for p in parts)",
            "msg = b'AASM' + kind.encode() + struct.pack('>I', len(payload)) + payload",
            // a kernel that refuses the peer before reading (another uid) may have closed by now:
            // its answer is still in this socket's receive buffer
            "try:",
            "    socket.send_fds(s, [msg[:1]], [0, 1, 2])",
            "    s.sendall(msg[1:])",
            "except (BrokenPipeError, ConnectionResetError):",
            "    pass",
            "def readn(n):",
            "    b = b''",
            "    while len(b) < n:",
            "        c = s.recv(n - len(b))",
            "        if not c:",
            "            print('frame closed', flush=True)",
            "            sys.exit(3)",
            "        b += c",
            "    return b",
            "k = readn(1).decode()",
            "v = struct.unpack('>I', readn(4))[0]",
            "print('frame ' + k + ' ' + (str(v) if k == 'X' else readn(v).decode()), flush=True)",
            "");

    private SocketAttacker() {
    }

    /** Whether this host can run the attacker (Python 3.9+ for socket.send_fds, at /usr/bin). */
    static boolean available() {
        try {
            Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import socket; socket.send_fds").start();
            return p.waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * argv of one request: {@code kind} R (with {@code args}), Q or T, claiming installation {@code home}.
     * Its stdout and stderr are a pipe (as an agent's usually are), so a kernel of another uid than the
     * test's can reopen them.
     */
    static List<String> argv(Path socket, char kind, Path home, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", "\"$@\" 2>&1 | cat", "sh", PYTHON.toString(),
                "-c", SCRIPT, socket.toString(), String.valueOf(kind), home.toString()));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * The shipped default policy plus a read grant of the socket's directory, so the socket stays
     * reachable however a backend builds the program's view of the filesystem (and no write grant
     * reaches the runtime directory, one of aasm's protected paths).
     */
    static Path defaultPolicyReaching(Path socket, Path dir) throws java.io.IOException {
        String policy = Files.readString(Aasm.DIST.resolve("conf/default-policy.yaml"));
        String reads = "allow: [/usr, /bin, /sbin, /lib, /lib64, /etc, /proc]";
        if (!policy.contains(reads)) {
            throw new AssertionError("the shipped default policy changed; update this test:\n" + policy);
        }
        Path file = dir.resolve("default-and-socket.yaml");
        Files.writeString(file, policy.replace(reads, "allow: [/usr, /bin, /sbin, /lib, /lib64, /etc, /proc, "
                + socket.getParent().toRealPath() + "]"));
        return file;
    }

    /** A directory outside every grant of the test policies (not under /tmp, not in the installation). */
    static Path outsideEveryGrant(String prefix) throws java.io.IOException {
        Path target = Aasm.DIST.toAbsolutePath().getParent();
        return Files.createTempDirectory(target, prefix);
    }
}
