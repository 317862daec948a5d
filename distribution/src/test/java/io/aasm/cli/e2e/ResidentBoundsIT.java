package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bound of the resident kernel, on a real kernel started with small limits, over real sockets:
 * one over the bound is refused with a clear answer (and logged, see {@link ResidentRequestLogIT}),
 * the control just under it is served.
 */
class ResidentBoundsIT {
    static final int CONNECTIONS = 4;
    static final int TIMEOUT_MS = 5000;
    static final int MAX_ARGS = 100;
    static final int MAX_BYTES = 65536;
    private static ResidentKernel kernel;

    @BeforeAll
    static void startKernel() throws Exception {
        kernel = ResidentKernel.start(Map.of("AASM_JAVA_OPTS", limits()));
    }

    /** The kernel's limits, as a user would set them (conf/framework.properties or AASM_JAVA_OPTS). */
    static String limits() {
        return "-Daasm.resident.max.connections=" + CONNECTIONS + " -Daasm.resident.max.launches=1"
                + " -Daasm.resident.launch.queue=1 -Daasm.resident.request.timeout.ms=" + TIMEOUT_MS
                + " -Daasm.resident.max.args=" + MAX_ARGS + " -Daasm.resident.max.request.bytes=" + MAX_BYTES;
    }

    @AfterAll
    static void stopKernel() throws Exception {
        kernel.close();
    }

    static SocketChannel connect(ResidentKernel k) throws Exception {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(k.socket));
        return ch;
    }

    private static List<SocketChannel> idle(int n) throws Exception {
        List<SocketChannel> held = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            held.add(connect(kernel));
        }
        return held;
    }

    private static void close(List<SocketChannel> held) throws Exception {
        for (SocketChannel c : held) {
            c.close();
        }
    }

    static Aasm.Result client(Path cwd, ResidentKernel k, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Aasm.DIST.resolve("bin/aasm-client").toString()));
        cmd.addAll(args);
        return Aasm.command(cwd, k.env(), cmd);
    }

    /** The kernel's answer to raw bytes: "E text", "I text", ... or "closed"; never waits past 60 s. */
    static String answer(SocketChannel ch) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                ByteBuffer head = ByteBuffer.allocate(5);
                while (head.hasRemaining()) {
                    if (ch.read(head) < 0) {
                        return "closed";
                    }
                }
                ByteBuffer text = ByteBuffer.allocate(head.getInt(1));
                while (text.hasRemaining() && ch.read(text) >= 0) {
                    // until the whole text is in
                }
                return (char) head.get(0) + " " + new String(text.array(), java.nio.charset.StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                return "closed";
            }
        }).get(60, TimeUnit.SECONDS);
    }

    static ByteBuffer head(char kind, int length) {
        return ByteBuffer.allocate(9).put("AASM".getBytes()).put((byte) kind).putInt(length).flip();
    }

    private static int threads(long pid) throws Exception {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("Threads:"))
                .mapToInt(l -> Integer.parseInt(l.substring(8).strip())).findFirst().orElseThrow();
    }

    @Test
    void oneConnectionOverTheBoundIsRefusedBusyAndThreadsStayBounded(@TempDir Path dir) throws Exception {
        List<String> echo = List.of("run", "exec", "--isolation", "none", "--", "/bin/sh", "-c", "echo served");
        // control: three idle connections held, the fourth (the client's) is served
        List<SocketChannel> held = idle(CONNECTIONS - 1);
        try {
            Aasm.Result served = client(dir, kernel, echo);
            // connections of earlier tests are let go asynchronously: busy is a reason to retry, as for any client
            for (int i = 0; i < 20 && served.exit() == 75; i++) {
                Thread.sleep(500);
                served = client(dir, kernel, echo);
            }
            assertEquals(0, served.exit(), served.toString());
            assertEquals("served\n", served.out(), served.toString());
        } finally {
            close(held);
        }
        long pid = kernel.pid();
        int before = threads(pid);
        held = idle(CONNECTIONS);
        try {
            Aasm.Result refused = client(dir, kernel, echo);
            assertEquals(75, refused.exit(), refused.toString());
            assertTrue(refused.err().contains("the resident kernel is serving its maximum of " + CONNECTIONS
                    + " connections at once (aasm.resident.max.connections); refused this one"), refused.toString());
            assertEquals("", refused.out(), "a refused client's program ran");
            // thirty more: each refused at accept, none given a thread
            for (int i = 0; i < 30; i++) {
                try (SocketChannel extra = connect(kernel)) {
                    assertTrue(answer(extra).startsWith("B aasm: the resident kernel is serving its maximum"));
                }
            }
            int during = threads(pid);
            assertTrue(during <= before + 2 * CONNECTIONS, "threads grew from " + before + " to " + during);
        } finally {
            close(held);
        }
        assertTrue(kernel.log().contains("refused a connection: at most 4 at once"), kernel.log());
    }

    @Test
    void aHeadThenSilenceIsDroppedAtTheDeadline() throws Exception {
        try (SocketChannel ch = connect(kernel)) {
            ch.write(head('R', 100));
            String a = answer(ch);
            assertTrue(a.startsWith("E aasm: resident kernel: no complete request within " + TIMEOUT_MS
                    + " ms (aasm.resident.request.timeout.ms); nothing was launched"), a);
            assertEquals("closed", answer(ch));
        }
        // control: a request that pauses but completes within the deadline is answered
        try (SocketChannel ch = connect(kernel)) {
            ch.write(head('Q', 0).limit(4));
            Thread.sleep(1000);
            ch.write(head('Q', 0).position(4));
            assertTrue(answer(ch).startsWith("I running pid="));
        }
    }

    @Test
    void aRequestAboveTheFrameLimitIsRefusedBeforeItsPayload() throws Exception {
        try (SocketChannel ch = connect(kernel)) {
            ch.write(head('Q', MAX_BYTES + 1));
            String a = answer(ch);
            assertTrue(a.startsWith("E aasm: resident kernel: request too large (" + (MAX_BYTES + 1)
                    + " bytes, at most " + MAX_BYTES + ")"), a);
        }
        // control: exactly the limit is read and answered
        try (SocketChannel ch = connect(kernel)) {
            ch.write(head('Q', MAX_BYTES));
            ByteBuffer payload = ByteBuffer.allocate(MAX_BYTES);
            while (payload.hasRemaining()) {
                ch.write(payload);
            }
            assertTrue(answer(ch).startsWith("I running pid="));
        }
    }

    @Test
    void argumentsAboveTheLimitAreRefusedBeforeParsingTheLimitIsServed(@TempDir Path dir) throws Exception {
        Path marker = dir.resolve("ran");
        List<String> args = new ArrayList<>(List.of("run", "exec", "--isolation", "none", "--", "/bin/sh", "-c",
                "touch " + marker, "sh"));
        while (args.size() < MAX_ARGS) {
            args.add("x");
        }
        Aasm.Result served = client(dir, kernel, args);
        assertEquals(0, served.exit(), served.toString());
        assertTrue(Files.exists(marker), served.toString());
        Files.delete(marker);
        args.add("x");
        Aasm.Result refused = client(dir, kernel, args);
        assertEquals(125, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("too many arguments: " + (MAX_ARGS + 1) + ", at most " + MAX_ARGS
                + " (aasm.resident.max.args)"), refused.toString());
        assertFalse(Files.exists(marker), "a refused request ran");
    }

    /** One launch at a time, one waiting: the second waits and is served, the third is refused busy. */
    @Test
    void launchesBeyondTheQueueAreRefusedBusyAQueuedOneIsServed(@TempDir Path dir) throws Exception {
        Path started = dir.resolve("started");
        Path release = dir.resolve("release");
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        Process first = Aasm.startCommand(List.of(Aasm.DIST.resolve("bin/aasm-client").toString(), "run", "exec",
                "--isolation", "none", "--", "/bin/sh", "-c", ": > " + started + "; while [ ! -e " + release
                        + " ]; do sleep 0.1; done; echo first"), a, kernel.env());
        try {
            await(() -> Files.exists(started), "the first launch never started");
            String logBefore = kernel.log();
            Process second = Aasm.startCommand(List.of(Aasm.DIST.resolve("bin/aasm-client").toString(), "run", "exec",
                    "--isolation", "none", "--", "/bin/sh", "-c", "echo second"), b, kernel.env());
            await(() -> kernel.log().length() > logBefore.length()
                    && kernel.log().substring(logBefore.length()).contains("waits for a launch slot: 1 running, 1 waiting"),
                    "the second request never queued\n" + kernel.log());
            Aasm.Result third = client(dir, kernel, List.of("run", "exec", "--isolation", "none", "--", "/bin/sh",
                    "-c", "echo third"));
            assertEquals(75, third.exit(), third.toString());
            assertTrue(third.err().contains("running its maximum of 1 launches (aasm.resident.max.launches) and 1"
                    + " more wait (aasm.resident.launch.queue); refused this one"), third.toString());
            assertEquals("", third.out());
            assertTrue(second.isAlive(), "the queued request did not wait");
            Files.writeString(release, "");
            assertTrue(first.waitFor(60, TimeUnit.SECONDS) && second.waitFor(60, TimeUnit.SECONDS));
            Aasm.Result r2 = Aasm.result(second, b);
            assertEquals(0, r2.exit(), r2.toString());
            assertEquals("second\n", r2.out(), r2.toString());
            assertEquals("first\n", Aasm.result(first, a).out());
        } finally {
            Files.writeString(release, "");
            first.waitFor(60, TimeUnit.SECONDS);
        }
    }

    /** A typo in a bound must never mean "unbounded": the kernel does not start, and says which one. */
    @Test
    void aBadBoundStopsTheKernelNamingIt() throws Exception {
        ResidentKernel bad = ResidentKernel.prepare();
        Aasm.Result r = Aasm.run(Aasm.DIST, bad.runtimeDir, Map.of("XDG_RUNTIME_DIR", bad.runtimeDir.toString(),
                "AASM_JAVA_OPTS", "-Daasm.resident.max.connections=0"), "daemon", "start");
        assertEquals(125, r.exit(), r.toString());
        assertTrue(bad.log().contains("aasm daemon: bad resident kernel limits: aasm.resident.max.connections=0 is not"
                + " a whole number from 1 to 2147483647; the resident kernel does not start"), bad.log());
        assertEquals(3, bad.status().exit(), "a kernel runs with a bad bound");
    }

    interface Check {
        boolean holds() throws Exception;
    }

    static void await(Check c, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!c.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what);
            }
            Thread.sleep(50);
        }
    }
}
