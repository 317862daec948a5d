package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.RelayBulkTransferTest.egress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay accepts on the granted ports' listeners itself (PROTOCOL.md, "Relay"), so a connection the program made
 * just before it ended waits in a listener's queue that only the relay drains. Made deterministic: the relay is
 * stopped (SIGSTOP) while the program connects, writes and exits and init ends the tree; only then is it continued.
 * What the program wrote must reach the test's service; control: a port not granted reaches nothing. (When the relay
 * resumes, poll reports the listener and init's end of file together and the listener is served first; the relay's
 * final accept pass at end of file covers a connection that arrives between the two, a race this test cannot
 * stage.)
 */
class RelayLastConnectionTest {
    @TempDir
    Path tmp;

    @Test
    void aConnectionMadeAsTheProgramEndsIsStillDelivered() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open();
             ServerSocketChannel other = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            other.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            assertEquals("last-words\n", lastWords(server, port(server)));
            // control, one grant different: the program writes to a port it was not granted
            assertEquals("", lastWords(other, port(server)));
        }
    }

    /** Runs the stopped-relay sequence against {@code target}'s port with only {@code granted} granted. */
    private String lastWords(ServerSocketChannel target, int granted) throws Exception {
        Path ready = tmp.resolve("ready-" + port(target));
        Path go = tmp.resolve("go-" + port(target));
        String action = "touch " + ready + "; while [ ! -e " + go + " ]; do sleep 0.02; done; "
                + "echo last-words > /dev/tcp/127.0.0.1/" + port(target) + " 2>/dev/null; exit 0";
        var handle = LoopbackInjectionTest.inMode("relay", () -> Harness.shared().start(Harness.grandchild("/bin/bash",
                action, tmp, Map.of(), List.of(egress(LoopbackInjectionTest.tcp(granted))))));
        await(() -> Files.exists(ready), "the program did not start");
        long relay = await(RelayLastConnectionTest::relay, "no relay process under this JVM");
        // init: the relay's sibling (the launcher's other child), in the program's network namespace
        long init = await(() -> ProcessHandle.of(relay).flatMap(ProcessHandle::parent).flatMap(l -> l.children()
                .filter(c -> c.pid() != relay && !sameNetns(c.pid())).findFirst()).map(ProcessHandle::pid),
                "no init beside the relay");
        signal("STOP", relay);
        try {
            Files.writeString(go, "");
            await(() -> ended(init), "the tree did not end (init " + init + " is still running)");
        } finally {
            signal("CONT", relay);
        }
        handle.await();
        target.configureBlocking(false);
        SocketChannel accepted = target.accept();
        if (accepted == null) {
            return "";
        }
        try (SocketChannel c = accepted) {
            c.configureBlocking(true);
            c.socket().setSoTimeout(10_000);
            ByteBuffer b = ByteBuffer.allocate(256);
            while (c.read(b) > 0) {
                // until the relay passes on the program's close
            }
            return new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII);
        }
    }

    private static int port(ServerSocketChannel s) throws IOException {
        return ((InetSocketAddress) s.getLocalAddress()).getPort();
    }

    /**
     * The relay: an aasm-launch under this JVM, child of an aasm-launch, in this JVM's network namespace, with no
     * children (its launcher has init; a zygote, where one serves, has the launcher).
     */
    private static Optional<Long> relay() {
        return ProcessHandle.current().descendants().filter(p -> comm(p.pid()).equals("aasm-launch")
                && p.parent().map(q -> comm(q.pid()).equals("aasm-launch")).orElse(false)
                && sameNetns(p.pid()) && p.children().findAny().isEmpty()).map(ProcessHandle::pid).findFirst();
    }

    /** Gone, or a zombie its launcher has not reaped yet: either way it has ended the tree and closed its sockets. */
    private static boolean ended(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException e) {
            return true;
        }
    }

    private static String comm(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/comm")).strip();
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean sameNetns(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/net"))
                    .equals(Files.readSymbolicLink(Path.of("/proc/self/ns/net")));
        } catch (IOException e) {
            return false;
        }
    }

    private static void signal(String sig, long pid) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start().waitFor());
    }

    private interface Probe<T> {
        Optional<T> get() throws Exception;
    }

    private static void await(java.util.concurrent.Callable<Boolean> done, String why) throws Exception {
        await(() -> done.call() ? Optional.of(true) : Optional.empty(), why);
    }

    /** Waits for the condition itself (no fixed sleep), up to a generous bound for a loaded machine. */
    private static <T> T await(Probe<T> probe, String why) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            Optional<T> v = probe.get();
            if (v.isPresent()) {
                return v.get();
            }
            Thread.sleep(10);
        }
        throw new AssertionError(why);
    }
}
