package io.aasm.transport.proxy.internal.bench;

import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.transport.MediationAccess;
import io.aasm.ports.transport.MediationRequest;
import io.aasm.ports.transport.MediationSession;
import io.aasm.transport.proxy.internal.ProxyMediator;
import io.aasm.transport.proxy.internal.admission.Resolver;
import io.aasm.transport.proxy.internal.admission.SpecialAddresses;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The proxy's own start-up and memory cost, in a fresh JVM (run it several times; not a test): time to
 * construct the mediator (what every activation pays), to open the first session (what the first mediated
 * launch pays: the pool and a listener), and to serve the first CONNECT; the JVM's resident set before any
 * session, with one session, and with 16 tunnels open at once. Prints one JSON line.
 *
 * <pre>java -cp ports.jar:target/classes:target/test-classes io.aasm.transport.proxy.internal.bench.MediationCost</pre>
 */
public final class MediationCost {
    private MediationCost() {
    }

    public static void main(String[] args) throws Exception {
        ServerSocket origin = new ServerSocket();
        origin.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
        List<Socket> held = new ArrayList<>();
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    Socket s = origin.accept();
                    synchronized (held) {
                        held.add(s);
                    }
                    s.getOutputStream().write('!');
                }
            } catch (Exception e) {
                // closed
            }
        });
        t.setDaemon(true);
        t.start();
        System.gc();
        long rss0 = rss();
        long a = System.nanoTime();
        Path state = Files.createTempDirectory("aasm-med-cost");
        ProxyMediator m = new ProxyMediator(state, 2000, Resolver.system(), SpecialAddresses.ofThisHost());
        long b = System.nanoTime();
        MediationSession s = m.open(new MediationRequest("cost", List.of(new EgressGrant(Protocol.TCP, "bench.test",
                origin.getLocalPort(), origin.getLocalPort())), new TreeMap<>(Map.of("bench.test", "127.0.0.2")),
                MediationAccess.LOOPBACK, 0));
        long c = System.nanoTime();
        String url = s.environment().get("http_proxy");
        int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
        String auth = java.util.Base64.getEncoder().encodeToString(url.substring(7, url.indexOf('@'))
                .getBytes(StandardCharsets.UTF_8));
        List<Socket> clients = new ArrayList<>();
        clients.add(tunnel(port, auth, origin.getLocalPort()));
        long d = System.nanoTime();
        System.gc();
        long rss1 = rss();
        for (int i = 1; i < 16; i++) {
            clients.add(tunnel(port, auth, origin.getLocalPort()));
        }
        System.gc();
        long rss16 = rss();
        int threads = Thread.activeCount();
        System.out.printf("{\"construct_ms\":%.3f,\"first_session_ms\":%.3f,\"first_connect_ms\":%.3f,"
                + "\"rss_kib_before\":%d,\"rss_kib_one_tunnel\":%d,\"rss_kib_16_tunnels\":%d,\"threads_16_tunnels\":%d}%n",
                (b - a) / 1e6, (c - b) / 1e6, (d - c) / 1e6, rss0, rss1, rss16, threads);
        for (Socket k : clients) {
            k.close();
        }
        s.close();
        origin.close();
        System.exit(0);
    }

    private static Socket tunnel(int port, String auth, int target) throws Exception {
        Socket k = new Socket("127.0.0.1", port);
        OutputStream out = k.getOutputStream();
        out.write(("CONNECT bench.test:" + target + " HTTP/1.1\r\nProxy-Authorization: Basic " + auth + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = k.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.read());
        }
        if (in.read() != '!') {
            throw new IllegalStateException("no byte through the tunnel: " + head);
        }
        return k;
    }

    private static long rss() throws Exception {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmRSS:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
