package io.aasm.transport.proxy.internal.session;

import static io.aasm.transport.proxy.internal.session.Sessions.tcp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.EgressVerdict;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.RelayEndpoint;
import io.aasm.transport.proxy.internal.ProxyMediator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real sessions on real sockets. Stand-in hosts listen on 127.0.0.2 and 127.0.0.3 (names pinned or given to
 * the test resolver); the effect asserted is what reached them. Each denial has a control that differs by the
 * one grant (or pin) the denial lacks.
 */
class ProxySessionTest {
    @TempDir
    Path state;
    ProxyMediator mediator;
    Origin granted;
    Origin other;

    @BeforeEach
    void start() throws Exception {
        granted = new Origin("127.0.0.2", "pong");
        other = new Origin("127.0.0.3", "secret-answer");
        mediator = Sessions.mediator(state, Map.of("private.test", "127.0.0.3"));
    }

    @AfterEach
    void stop() throws Exception {
        granted.close();
        other.close();
    }

    private MediationSession relayed() throws Exception {
        return Sessions.relayed(mediator, List.of(tcp("granted.test", granted.port())),
                Map.of("granted.test", "127.0.0.2", "other.test", "127.0.0.3"));
    }

    private static Client relayClient(MediationSession s) throws Exception {
        RelayEndpoint e = s.relay().orElseThrow();
        return Client.unix(e.socket(), e.preamble());
    }

    @Test
    void aRelayedConnectReachesTheGrantedHostAndIsRecorded() throws Exception {
        MediationSession s = relayed();
        try (Client c = relayClient(s)) {
            String head = c.send("CONNECT granted.test:" + granted.port() + " HTTP/1.1\r\nHost: granted.test\r\n\r\n")
                    .head();
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertEquals("pong", c.send("hello").finish());
        }
        assertEquals(List.of("hello"), granted.await(1));
        s.close();
        EgressDecision d = s.decisions().get(0);
        assertEquals(EgressVerdict.ALLOWED, d.verdict());
        assertEquals("http-connect", d.protocol());
        assertEquals("granted.test", d.destination());
        assertEquals("127.0.0.2", d.resolved().orElseThrow());
        assertEquals("{host: granted.test, port: " + granted.port() + "} (pinned to 127.0.0.2)", d.grant().orElseThrow());
        assertEquals(5, d.bytesUp());
        assertEquals(4, d.bytesDown());
        assertEquals(1, s.tally().allowed());
    }

    @Test
    @Timeout(20) // a liveness bound, far below the 30 s dialog limit that would free a held-up session on its own
    void connectionsStalledInTheirDialogDoNotHoldUpTheNextOne() throws Exception {
        // each connection is served on the thread that accepted it, which first hands the accepting on: a client
        // that sends half a request (or nothing) must not keep the session from answering the others
        MediationSession s = relayed();
        List<Client> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                stalled.add(relayClient(s).send(i == 0 ? "" : "CONNECT granted.test:" + granted.port()));
            }
            try (Client c = relayClient(s)) {
                String head = c.send("CONNECT granted.test:" + granted.port() + " HTTP/1.1\r\n\r\n").head();
                assertTrue(head.startsWith("HTTP/1.1 200"), head);
                assertEquals("pong", c.send("hello").finish());
            }
            assertEquals(List.of("hello"), granted.await(1));
        } finally {
            for (Client c : stalled) {
                c.close();
            }
        }
        s.close();
        // control: the stalled ones reached nothing and are recorded as incomplete, not as admitted tunnels
        assertEquals(1, s.tally().allowed(), s.decisions().toString());
        assertEquals(List.of("hello"), granted.received());
    }

    @Test
    void aConnectionWithoutTheRelayCredentialIsRefusedAndRecorded() throws Exception {
        MediationSession s = relayed();
        byte[] wrong = new byte[32];
        try (Client c = Client.unix(s.relay().orElseThrow().socket(), wrong)) {
            c.send("CONNECT granted.test:" + granted.port() + " HTTP/1.1\r\n\r\nhello");
            assertEquals("", c.readAll(), "nothing is answered");
        }
        s.close();
        assertEquals(List.of(), granted.received());
        EgressDecision d = s.decisions().get(0);
        assertEquals(EgressVerdict.DENIED, d.verdict());
        assertEquals("relay", d.protocol());
        assertTrue(d.reason().orElseThrow().contains("relay credential"));
    }

    @Test
    void anUngrantedHostAndAnUngrantedPortGet403AndNothingReachesThem() throws Exception {
        MediationSession s = relayed();
        try (Origin secondPort = new Origin("127.0.0.2", "x")) {
            for (String target : List.of("other.test:" + other.port(), "granted.test:" + secondPort.port(),
                    "127.0.0.2:" + granted.port())) {
                try (Client c = relayClient(s)) {
                    String reply = c.send("CONNECT " + target + " HTTP/1.1\r\n\r\nhello").readAll();
                    assertTrue(reply.startsWith("HTTP/1.1 403 Forbidden\r\nX-Proxy-Error: blocked by egress policy"),
                            target + ": " + reply);
                }
            }
            s.close();
            assertEquals(List.of(), secondPort.received());
        }
        assertEquals(List.of(), other.received());
        assertEquals(List.of(), granted.received());
        assertEquals(3, s.tally().denied());
        assertTrue(s.decisions().stream().allMatch(EgressDecision::denied));
        assertTrue(s.decisions().get(1).reason().orElseThrow().contains("is not granted"), s.decisions().toString());
    }

    @Test
    void anAbsoluteFormRequestIsForwardedInOriginFormWithoutProxyFields() throws Exception {
        MediationSession s = relayed();
        try (Client c = relayClient(s)) {
            String reply = c.send("GET http://granted.test:" + granted.port() + "/simple/x/ HTTP/1.1\r\nHost: granted.test"
                    + "\r\nProxy-Authorization: Basic Zm9vOmJhcg==\r\nConnection: keep-alive\r\nAccept: */*\r\n\r\n")
                    .readAll();
            assertEquals("pong", reply);
        }
        String got = granted.await(1).get(0);
        assertTrue(got.startsWith("GET /simple/x/ HTTP/1.1\r\n"), got);
        assertTrue(got.contains("\r\nConnection: close\r\n") && got.contains("\r\nAccept: */*\r\n"), got);
        assertFalse(got.contains("Proxy-Authorization") || got.contains("keep-alive"), got);
        s.close();
        assertEquals("http", s.decisions().get(0).protocol());
    }

    @Test
    void socks5ConnectsByNameAndRefusesWhatIsNotGranted() throws Exception {
        MediationSession s = relayed();
        try (Client c = relayClient(s)) {
            assertArrayEquals(new byte[] {5, 0}, c.send(new byte[] {5, 1, 0}).read(2));
            byte[] name = "granted.test".getBytes(StandardCharsets.US_ASCII);
            c.send(socksConnect(name, granted.port()));
            assertEquals(0, c.read(10)[1]);
            assertEquals("pong", c.send("hi").finish());
        }
        try (Client c = relayClient(s)) {
            c.send(new byte[] {5, 1, 0}).read(2);
            c.send(socksConnect("other.test".getBytes(StandardCharsets.US_ASCII), other.port()));
            assertEquals(2, c.read(10)[1], "REP 2: connection not allowed by ruleset");
        }
        try (Client c = relayClient(s)) {
            c.send(new byte[] {5, 1, 0}).read(2);
            byte[] udp = socksConnect("granted.test".getBytes(StandardCharsets.US_ASCII), granted.port());
            udp[1] = 3; // UDP ASSOCIATE
            c.send(udp);
            assertEquals(7, c.read(10)[1]);
        }
        s.close();
        assertEquals(List.of("hi"), granted.received());
        assertEquals(List.of(), other.received());
        // records are kept in the order the exchanges ended, which the three connections do not fix
        assertEquals(3, s.decisions().size());
        assertTrue(s.decisions().stream().allMatch(d -> d.protocol().equals("socks5")), s.decisions().toString());
        assertTrue(s.decisions().stream().anyMatch(d -> d.reason().orElse("").contains("UDP ASSOCIATE")),
                s.decisions().toString());
    }

    @Test
    void anAdmittedDestinationThatRefusesTheDialIsAnswered502OrRep5AndRecordedAsAllowedButFailed() throws Exception {
        Origin closed = new Origin("127.0.0.2", "never");
        int gone = closed.port();
        closed.close(); // nothing listens on 127.0.0.2:gone any more: the dial is refused
        MediationSession s = Sessions.relayed(mediator, List.of(tcp("granted.test", granted.port()),
                tcp("granted.test", gone)), Map.of("granted.test", "127.0.0.2"));
        try (Client c = relayClient(s)) {
            String reply = c.send("CONNECT granted.test:" + gone + " HTTP/1.1\r\n\r\n").readAll();
            assertTrue(reply.startsWith("HTTP/1.1 502 Bad Gateway\r\nX-Proxy-Error: bad gateway"), reply);
        }
        try (Client c = relayClient(s)) {
            c.send(new byte[] {5, 1, 0}).read(2);
            c.send(socksConnect("granted.test".getBytes(StandardCharsets.US_ASCII), gone));
            assertEquals(5, c.read(10)[1], "REP 5: connection refused");
        }
        // control: the same session and name, on the port that listens, is carried through
        try (Client c = relayClient(s)) {
            assertTrue(c.send("CONNECT granted.test:" + granted.port() + " HTTP/1.1\r\n\r\n").head()
                    .startsWith("HTTP/1.1 200"));
            assertEquals("pong", c.send("hello").finish());
        }
        assertEquals(List.of("hello"), granted.await(1));
        s.close();
        List<EgressDecision> failed = s.decisions().stream().filter(d -> d.port() == gone).toList();
        assertEquals(2, failed.size(), s.decisions().toString());
        for (EgressDecision d : failed) {
            assertEquals(EgressVerdict.ALLOWED, d.verdict(), "admitted by the policy; the dial is what failed");
            assertTrue(d.reason().orElseThrow().startsWith("dialling failed: 127.0.0.2: "), d.reason().get());
            assertEquals(0, d.bytesUp());
        }
    }

    private static byte[] socksConnect(byte[] name, int port) {
        byte[] req = new byte[7 + name.length];
        req[0] = 5;
        req[1] = 1;
        req[3] = 3;
        req[4] = (byte) name.length;
        System.arraycopy(name, 0, req, 5, name.length);
        req[5 + name.length] = (byte) (port >> 8);
        req[6 + name.length] = (byte) port;
        return req;
    }

    @Test
    void aGrantedNameWhoseResolverAnswerIsLoopbackIsRefusedUnlessPinned() throws Exception {
        MediationSession hostile = Sessions.relayed(mediator, List.of(tcp("private.test", other.port())), Map.of());
        MediationSession control = Sessions.relayed(mediator, List.of(tcp("private.test", other.port())),
                Map.of("private.test", "127.0.0.3"));
        try (Client c = relayClient(hostile)) {
            assertTrue(c.send("CONNECT private.test:" + other.port() + " HTTP/1.1\r\n\r\n").readAll()
                    .startsWith("HTTP/1.1 403"));
        }
        assertEquals(List.of(), other.received());
        try (Client c = relayClient(control)) {
            assertTrue(c.send("CONNECT private.test:" + other.port() + " HTTP/1.1\r\n\r\n").head().startsWith("HTTP/1.1 200"));
            assertEquals("secret-answer", c.send("q").finish());
        }
        hostile.close();
        control.close();
        assertEquals(List.of("q"), other.received());
        EgressDecision refused = hostile.decisions().get(0);
        assertEquals("127.0.0.3", refused.resolved().orElseThrow());
        assertTrue(refused.reason().orElseThrow().contains("127.0.0.3 is a loopback address"), refused.reason().get());
    }

    @Test
    void aLoopbackSessionNeedsItsCredentials() throws Exception {
        MediationSession s = Sessions.loopback(mediator, List.of(tcp("granted.test", granted.port())),
                Map.of("granted.test", "127.0.0.2"));
        String url = s.environment().get("http_proxy");
        assertTrue(url.matches("http://aasm:[0-9a-f]{48}@127\\.0\\.0\\.1:\\d+"), url);
        int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
        String auth = java.util.Base64.getEncoder().encodeToString(url.substring(7, url.indexOf('@'))
                .getBytes(StandardCharsets.UTF_8));
        String connect = "CONNECT granted.test:" + granted.port() + " HTTP/1.1\r\n";
        try (Client c = Client.tcp(port)) {
            assertTrue(c.send(connect + "\r\n").readAll().startsWith("HTTP/1.1 407"));
        }
        assertEquals(List.of(), granted.received());
        try (Client c = Client.tcp(port)) {
            assertTrue(c.send(connect + "Proxy-Authorization: Basic " + auth + "\r\n\r\n").head().startsWith("HTTP/1.1 200"));
            assertEquals("pong", c.send("ok").finish());
        }
        try (Client c = Client.tcp(port)) {
            assertArrayEquals(new byte[] {5, 2}, c.send(new byte[] {5, 2, 0, 2}).read(2));
            assertArrayEquals(new byte[] {1, 1}, c.send(new byte[] {1, 4, 'a', 'a', 's', 'm', 1, 'x'}).read(2));
        }
        s.close();
        assertEquals(List.of("ok"), granted.received());
        assertEquals(2, s.tally().denied());
        assertTrue(s.relay().isEmpty());
    }

    @Test
    void closingTheSessionEndsOpenTunnelsAndRecordsThem() throws Exception {
        MediationSession s = relayed();
        Client c = relayClient(s);
        assertTrue(c.send("CONNECT granted.test:" + granted.port() + " HTTP/1.1\r\n\r\n").head().startsWith("HTTP/1.1 200"));
        c.send("partial");
        s.close();
        try {
            assertEquals("", c.readAll(), "the tunnel ended");
        } catch (java.net.SocketException reset) {
            // ended by a reset: the proxy closed it with bytes in flight
        }
        c.close();
        assertEquals(1, s.decisions().size());
        assertTrue(s.decisions().get(0).bytesUp() <= 7);
        assertTrue(s.decisions().get(0).reason().orElseThrow().contains("ended abnormally"));
        assertFalse(Files.exists(s.relay().orElseThrow().socket()), "the socket is gone");
    }

    @Test
    void theDecisionLogIsJsonLinesInAPrivateFolderAndTheRelayedEnvironmentCarriesNoSecret() throws Exception {
        MediationSession s = relayed();
        try (Client c = relayClient(s)) {
            c.send("CONNECT nope.test:1 HTTP/1.1\r\n\r\n").readAll();
        }
        s.close();
        Path log = s.decisionLog().orElseThrow();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log.getParent())));
        List<String> lines = Files.readAllLines(log);
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).matches("\\{\"time\":\"[^\"]+\",\"launch\":\"" + s.launchId() + "\",\"protocol\":"
                + "\"http-connect\",\"destination\":\"nope.test\",\"port\":1,\"resolved\":null,\"verdict\":\"denied\","
                + "\"grant\":null,\"reason\":\"no grant names nope.test \\(the name was not resolved\\)\",\"bytes_up\":0,"
                + "\"bytes_down\":0,\"duration_ms\":[0-9.]+}"), lines.get(0));
        assertEquals(Map.of("HTTP_PROXY", "http://127.0.0.1:3128", "http_proxy", "http://127.0.0.1:3128",
                "HTTPS_PROXY", "http://127.0.0.1:3128", "https_proxy", "http://127.0.0.1:3128",
                "ALL_PROXY", "socks5h://127.0.0.1:3128", "all_proxy", "socks5h://127.0.0.1:3128",
                "NO_PROXY", "localhost,127.0.0.1,::1", "no_proxy", "localhost,127.0.0.1,::1"), s.environment());
    }

    @Test
    void aMalformedRequestIsAnswered400AndRecorded() throws Exception {
        MediationSession s = relayed();
        try (Client c = relayClient(s)) {
            assertTrue(c.send("GET /index.html HTTP/1.1\r\n\r\n").readAll().startsWith("HTTP/1.1 400"));
        }
        try (Client c = relayClient(s)) {
            assertTrue(c.send("GET https://granted.test/ HTTP/1.1\r\n\r\n").readAll().startsWith("HTTP/1.1 400"));
        }
        try (Client c = relayClient(s)) {
            assertTrue(c.send("CONNECT a:1 HTTP/1.1\r\nX: " + "y".repeat(20000) + "\r\n\r\n").readAll()
                    .startsWith("HTTP/1.1 431"));
        }
        s.close();
        assertEquals(3, s.tally().denied());
        assertEquals(List.of(), granted.received());
    }
}
