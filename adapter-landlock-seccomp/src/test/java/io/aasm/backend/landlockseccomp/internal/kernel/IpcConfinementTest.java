package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Landlock scoping: an abstract unix listener and a process the test owns, both outside the tree. */
class IpcConfinementTest {
    @TempDir
    Path tmp;

    interface Sock extends Library {
        Sock C = Native.load("c", Sock.class);

        int socket(int domain, int type, int protocol);

        int bind(int fd, Pointer addr, int len);

        int listen(int fd, int backlog);

        int accept4(int fd, Pointer addr, Pointer len, int flags);

        int close(int fd);
    }

    private static final int AF_UNIX = 1;
    private static final int SOCK_STREAM_NONBLOCK = 1 | 04000;

    /** A listening abstract socket the test owns; accept is non-blocking so "nothing arrived" is decidable. */
    private static int listen(String name) {
        int fd = Sock.C.socket(AF_UNIX, SOCK_STREAM_NONBLOCK, 0);
        Memory addr = new Memory(2 + 1 + name.length());
        addr.clear();
        addr.setShort(0, (short) AF_UNIX);
        addr.write(3, name.getBytes(), 0, name.length());
        if (fd < 0 || Sock.C.bind(fd, addr, (int) addr.size()) != 0 || Sock.C.listen(fd, 8) != 0) {
            throw new IllegalStateException("cannot listen on abstract socket " + name);
        }
        return fd;
    }

    private static boolean connected(int fd) {
        int c = Sock.C.accept4(fd, null, null, 0);
        if (c >= 0) {
            Sock.C.close(c);
            return true;
        }
        return false;
    }

    @Test
    void abstractUnixListenerOutsideReceivesNothingUnlessGranted() throws Exception {
        Harness h = Harness.shared();
        String name = "aasm-test-" + ProcessHandle.current().pid();
        int fd = listen(name);
        try {
            Path client = Files.writeString(tmp.resolve("client.py"), "import socket\n"
                    + "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
                    + "s.connect(b'\\0" + name + "')\ns.send(b'x')\n");
            String action = "/usr/bin/python3 " + client;
            h.sh(action, tmp, req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL, IpcChannel.SYSV))));
            assertFalse(connected(fd), "abstract unix socket outside the tree must be unreachable");
            h.sh(action, tmp, req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL, IpcChannel.SYSV,
                    IpcChannel.ABSTRACT_UNIX))));
            assertTrue(connected(fd), "control: with abstract_unix granted the connection arrives");
        } finally {
            Sock.C.close(fd);
        }
    }

    @Test
    void signalToAProcessOutsideIsNotDelivered() throws Exception {
        Harness h = Harness.shared();
        Process outside = new ProcessBuilder("sleep", "60").start();
        try {
            String action = "kill -TERM " + outside.pid();
            h.sh(action, tmp, req(CapabilityDomain.IPC, new Scope.WholeDomain()));
            assertFalse(outside.waitFor(500, TimeUnit.MILLISECONDS), "the outside process must still be alive");
            h.sh(action, tmp, req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL))));
            assertTrue(outside.waitFor(10, TimeUnit.SECONDS), "control: with signal granted the process dies");
        } finally {
            outside.destroyForcibly();
        }
    }

    @Test
    void sysvObjectsOfTheHostAreInvisible() throws Exception {
        Harness h = Harness.shared();
        Process mk = new ProcessBuilder("ipcmk", "-Q").redirectErrorStream(true).start();
        String created = new String(mk.getInputStream().readAllBytes()).trim();
        mk.waitFor();
        String id = created.replaceAll("\\D+", " ").trim().split(" ")[0];
        Path out = tmp.resolve("queues");
        try {
            String action = "ipcs -q -i " + id + " > " + out;
            h.sh(action, tmp, req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL,
                    IpcChannel.ABSTRACT_UNIX))));
            assertFalse(Files.readString(out).contains("msqid=" + id), "host queue visible: " + Files.readString(out));
            h.sh(action, tmp, req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL,
                    IpcChannel.ABSTRACT_UNIX, IpcChannel.SYSV))));
            assertTrue(Files.readString(out).contains("msqid=" + id), "control: with sysv granted the queue is visible");
        } finally {
            new ProcessBuilder("ipcrm", "-q", id).start().waitFor();
        }
    }

}
