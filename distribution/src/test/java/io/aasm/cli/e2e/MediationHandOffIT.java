package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.testsupport.net.SocketHolders;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-off of an admitted tunnel (docs/mediation.md, "Hand-off"), through the built {@code bin/aasm} with
 * the real proxy and the launcher's real relay: a python3 grandchild opens an HTTP CONNECT tunnel to a granted
 * stand-in host and sends 64 MiB while it receives 64 MiB, with its half-close in the middle; the server the
 * test owns checks both by SHA-256 and counts what crossed it, and the decision record's byte counts (the relay's
 * report plus what the proxy forwarded itself) must equal those counts. Control: the same program towards a
 * host without a grant (the one thing that differs) gets 403 and no connection reaches the server. The program
 * also looks for the relay that counts its bytes (a process named aasm-launch) and finds only its own init, pid 1
 * of its namespace, while the host sees the launcher, init and the relay: the relay is outside the program's pid
 * namespace (and non-dumpable, PROTOCOL.md).
 */
class MediationHandOffIT {
    static final long SIZE = 64L << 20;

    @TempDir
    Path dir;

    static final String CLIENT = String.join("\n",
            "import hashlib, os, socket, sys, threading",
            "host, port, size, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]",
            "proxy = (os.environ.get('https_proxy') or os.environ['HTTPS_PROXY']).split('//')[-1].rstrip('/')",
            "ph, pp = proxy.rsplit(':', 1)",
            "s = socket.create_connection((ph, int(pp)))",
            "s.sendall(('CONNECT %s:%d HTTP/1.1\\r\\nHost: %s:%d\\r\\n\\r\\n' % (host, port, host, port)).encode())",
            "head = b''",
            "while not head.endswith(b'\\r\\n\\r\\n'):",
            "    c = s.recv(1)",
            "    if not c:",
            "        break",
            "    head += c",
            "if not head.startswith(b'HTTP/1.1 200'):",
            "    open(out, 'w').write('refused ' + head.split(b'\\r\\n')[0].decode())",
            "    sys.exit(3)",
            "sent = hashlib.sha256()",
            "def send():",
            "    left = size",
            "    while left > 0:",
            "        chunk = os.urandom(min(left, 1 << 20))",
            "        sent.update(chunk)",
            "        s.sendall(chunk)",
            "        left -= len(chunk)",
            "    s.shutdown(socket.SHUT_WR)",
            "t = threading.Thread(target=send)",
            "t.start()",
            "def comm(d):",
            "    try:",
            "        return open('/proc/%s/comm' % d).read().strip()",
            "    except OSError:",
            "        return ''",
            "launchers = ','.join(sorted(d for d in os.listdir('/proc') if d.isdigit() and comm(d) == 'aasm-launch')) or '-'",
            "data = bytearray()",
            "while True:",
            "    b = s.recv(1 << 20)",
            "    if not b:",
            "        break",
            "    data += b",
            "t.join()",
            "body, trailer = bytes(data[:-64]), bytes(data[-64:]).decode('ascii', 'replace')",
            "open(out, 'w').write('%s %d %s %d %s %s' % (sent.hexdigest(), size, hashlib.sha256(body).hexdigest(),"
                    + " len(body), trailer, launchers))",
            "");

    /** What crossed the server's end: digests and counts each way. */
    record Seen(String receivedSha256, long received, String sentSha256, long sent, int launchersOnHost,
                String upstreamHolders) {
    }

    private Path script;
    private Path policy;

    /** A server the test owns on 127.0.0.2, granted as bulk.test in the policy (other.test is pinned, not granted). */
    private ServerSocketChannel server() throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")),
                "environment cannot host this check: python3 is not installed (.ci/run installs it)");
        script = dir.resolve("bulk.py");
        Files.writeString(script, CLIENT);
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
        int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
        policy = dir.resolve("policy.yaml");
        Files.writeString(policy, "apiVersion: aasm/v1\nkind: Policy\n"
                + "filesystem:\n  read: {allow: [/usr, /bin, /lib, /lib64, /etc, /proc, " + dir + "]}\n"
                + "  write: {allow: [" + dir + "]}\n"
                + "network:\n  egress: {allow: [{host: bulk.test, port: " + port + "}]}\n"
                + "  name_resolution: {hosts: {bulk.test: 127.0.0.2, other.test: 127.0.0.2}}\n"
                + "credentials: {delegate: [PATH]}\n");
        return server;
    }

    private Aasm.Result launch(Path home, String host, int port, Path out, String... report) throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "exec", "--isolation",
                "process", "--isolation-backend", "aasm-native", "--policy", policy.toString()));
        args.addAll(java.util.List.of(report));
        args.addAll(java.util.List.of("--", "/usr/bin/python3", script.toString(), host, Integer.toString(port),
                Long.toString(SIZE), out.toString()));
        return Aasm.run(home, dir, Map.of("PATH", "/usr/bin:/bin"), args.toArray(String[]::new));
    }

    /** The whole transfer through {@code home}; asserts it intact and counted, returns what the server saw. */
    private Seen transfer(Path home, ServerSocketChannel server) throws Exception {
        int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
        CompletableFuture<Seen> seen = CompletableFuture.supplyAsync(() -> {
            try (SocketChannel c = server.accept()) {
                return exchange(c);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Path out = dir.resolve("out");
        Path report = dir.resolve("report.json");
        Files.deleteIfExists(out);
        Files.deleteIfExists(report);
        Aasm.Result r = launch(home, "bulk.test", port, out, "--report", "json", "--report-file", report.toString());
        assertEquals(0, r.exit(), r.toString());
        Seen at = seen.get(60, TimeUnit.SECONDS);
        String[] p = Files.readString(out).split(" ");
        assertEquals(6, p.length, "the program finished the exchange: " + String.join(" ", p));
        assertTrue(at.launchersOnHost() >= 3, "control: the host saw the launcher, init and the relay mid-transfer");
        assertEquals("1", p[5], "mid-transfer, the program sees only its own init (pid 1 of its namespace): it "
                + "cannot even name the relay that counts its bytes");
        assertEquals(SIZE, at.received(), "every byte the program sent reached the server");
        assertEquals(p[0], at.receivedSha256(), "the program's bytes arrived unaltered");
        assertEquals(Long.toString(SIZE), p[3], "every byte the server sent reached the program");
        assertEquals(at.sentSha256(), p[2], "the server's bytes arrived unaltered");
        assertEquals(at.receivedSha256(), p[4],
                "the server's last word, sent only after the program's half-close reached it, came back");
        String json = Files.readString(report);
        assertEquals(at.received(), field(json, "bytes_up"), "bytes up in the record = what the server read");
        assertEquals(at.sent(), field(json, "bytes_down"), "bytes down in the record = what the server sent");
        return at;
    }

    @Test
    void sixtyFourMebibytesEachWayCrossAHandedTunnelIntactAndTheRecordCountsWhatTheServerSaw() throws Exception {
        try (ServerSocketChannel server = server()) {
            Seen at = transfer(Aasm.DIST, server);
            assertEquals("aasm-launch", at.upstreamHolders(), "mid-transfer, only the relay held the dialled "
                    + "upstream socket: the proxy's JVM had left the byte path");

            // control: the same program towards a host without a grant; nothing reaches the server
            Path out = dir.resolve("out");
            Files.delete(out);
            server.configureBlocking(false);
            Aasm.Result refused = launch(Aasm.DIST, "other.test", ((InetSocketAddress) server.getLocalAddress())
                    .getPort(), out);
            assertEquals(3, refused.exit(), refused.toString());
            assertTrue(Files.readString(out).startsWith("refused HTTP/1.1 403"), Files.readString(out));
            assertNull(server.accept(), "without the grant no connection reached the server");
        }
    }

    /** Control of the hand-off itself: the same transfer with hand.off = false is carried by the proxy's JVM. */
    @Test
    void withHandOffSwitchedOffTheJvmCarriesTheSameTransferAndCountsItTheSame() throws Exception {
        PrivateDist d = PrivateDist.copy("handoff-off");
        Path cfg = d.home.resolve("conf/io.aasm.transport.proxy.cfg");
        Files.writeString(cfg, Files.readString(cfg) + "\nhand.off = false\n");
        try (ServerSocketChannel server = server()) {
            Seen at = transfer(d.home, server);
            assertEquals("java", at.upstreamHolders(), "the proxy's JVM held the upstream socket, not the relay");
        }
    }

    private static long field(String json, String name) {
        Matcher m = Pattern.compile(name + "[\\\\\"]*:(\\d+)").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        long v = Long.parseLong(m.group(1));
        assertFalse(m.find(), "one decision only: " + json);
        return v;
    }

    /** Sends SIZE random bytes while it reads everything; after the program's half-close, the SHA-256 it read. */
    private static Seen exchange(SocketChannel c) throws Exception {
        CompletableFuture<String> sending = CompletableFuture.supplyAsync(() -> {
            MessageDigest d = sha256();
            byte[] chunk = new byte[1 << 20];
            SecureRandom random = new SecureRandom();
            try {
                for (long left = SIZE; left > 0; left -= chunk.length) {
                    random.nextBytes(chunk);
                    d.update(chunk);
                    ByteBuffer b = ByteBuffer.wrap(chunk);
                    while (b.hasRemaining()) {
                        c.write(b);
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("the program stopped reading: " + e.getMessage(), e);
            }
            return HexFormat.of().formatHex(d.digest());
        });
        int launchers = 0;
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path d : (Iterable<Path>) procs::iterator) {
                try {
                    if (d.getFileName().toString().matches("\\d+")
                            && Files.readString(d.resolve("comm")).strip().equals("aasm-launch")) {
                        launchers++;
                    }
                } catch (IOException gone) {
                    // the process ended while listed
                }
            }
        }
        MessageDigest got = sha256();
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        long received = 0;
        int n;
        String holders = null;
        while ((n = c.read(b)) >= 0) {
            got.update(b.array(), 0, n);
            received += n;
            b.clear();
            if (holders == null && received >= 1 << 20) {
                holders = SocketHolders.of(((InetSocketAddress) c.getRemoteAddress()).getPort(),
                        ((InetSocketAddress) c.getLocalAddress()).getPort());
            }
        }
        String receivedHex = HexFormat.of().formatHex(got.digest());
        String sentHex = sending.get();
        ByteBuffer trailer = ByteBuffer.wrap(receivedHex.getBytes(StandardCharsets.US_ASCII));
        while (trailer.hasRemaining()) {
            c.write(trailer);
        }
        c.shutdownOutput();
        return new Seen(receivedHex, received, sentHex, SIZE + 64, launchers, holders);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
