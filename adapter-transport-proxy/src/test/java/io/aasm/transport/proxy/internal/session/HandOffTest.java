package io.aasm.transport.proxy.internal.session;

import static io.aasm.transport.proxy.internal.session.Sessions.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.transport.EgressDecision;
import io.aasm.testsupport.relay.Libc;
import io.aasm.ports.transport.EgressVerdict;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.RelayEndpoint;
import io.aasm.transport.proxy.internal.ProxyMediator;
import io.aasm.transport.proxy.internal.handoff.HandOff;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy's side of the hand-off on real sockets: after admission it hands the dialled upstream socket to a
 * relay that announced the capability, forwards itself what it had read past the request, leaves the byte path,
 * and records the relay's counts. The effect is asserted at the origin the test owns. Controls: the same
 * request from a relay without the capability is tunnelled by the proxy (ProxySessionTest); a refused
 * destination hands nothing over and reaches nothing; a malformed capability is refused before any request.
 */
class HandOffTest {
    @TempDir
    Path state;
    ProxyMediator mediator;
    Origin granted;

    @BeforeEach
    void start() throws Exception {
        granted = new Origin("127.0.0.2", "pong");
        mediator = Sessions.mediator(state, Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        granted.close();
    }

    private MediationSession session() throws Exception {
        return Sessions.relayed(mediator, List.of(tcp("granted.test", granted.port())),
                Map.of("granted.test", "127.0.0.2", "other.test", "127.0.0.3"));
    }

    @Test
    void anAdmittedTunnelIsHandedOverAndTheRecordAddsTheRelaysCounts() throws Exception {
        assertTrue(HandOff.UNAVAILABLE.isEmpty(), () -> "this JVM cannot hand off: " + HandOff.UNAVAILABLE);
        MediationSession s = session();
        RelayEndpoint e = s.relay().orElseThrow();
        try (HandOffRelay relay = new HandOffRelay(e.socket(), HandOffRelay.CAPABILITY, e.preamble())) {
            // the request and, in the same write, the program's first bytes past it
            HandOffRelay.write(relay.session, "CONNECT granted.test:" + granted.port() + " HTTP/1.1\r\n\r\nearly");
            String answers = relay.untilMarker();
            assertTrue(answers.startsWith("HTTP/1.1 200") && answers.endsWith("\r\n\r\nH"), answers);
            assertTrue(relay.upstream >= 0 && relay.report >= 0, "the upstream socket and the report socket came");
            Libc.LIBC.shutdown(relay.session, 1); // SHUT_WR: what the proxy read is all it gets
            assertEquals("", HandOffRelay.readAll(relay.session), "the proxy says nothing more and closes");
            HandOffRelay.write(relay.upstream, "late");
            Libc.LIBC.shutdown(relay.upstream, 1);
            assertEquals("pong", HandOffRelay.readAll(relay.upstream), "the relay talks to the origin directly");
            relay.report(4, 4, 0);
        }
        assertEquals(List.of("earlylate"), granted.await(1), "the proxy forwarded its leftover first, in order");
        s.close();
        EgressDecision d = s.decisions().get(0);
        assertEquals(EgressVerdict.ALLOWED, d.verdict());
        assertEquals(5 + 4, d.bytesUp(), "what the proxy forwarded plus the relay's count");
        assertEquals(4, d.bytesDown(), "the relay's count");
        assertTrue(d.reason().isEmpty(), d.toString());
    }

    @Test
    void aSocks5TunnelIsHandedOverToo() throws Exception {
        MediationSession s = session();
        RelayEndpoint e = s.relay().orElseThrow();
        try (HandOffRelay relay = new HandOffRelay(e.socket(), HandOffRelay.CAPABILITY, e.preamble())) {
            byte[] host = "granted.test".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            java.io.ByteArrayOutputStream req = new java.io.ByteArrayOutputStream();
            req.write(new byte[] {5, 1, 0, 5, 1, 0, 3, (byte) host.length});
            req.write(host);
            req.write(new byte[] {(byte) (granted.port() >> 8), (byte) granted.port()});
            HandOffRelay.write(relay.session, req.toByteArray());
            String answers = relay.untilMarker();
            assertEquals(2 + 10 + 1, answers.length(), "method choice, success reply, marker: " + answers);
            assertEquals('H', answers.charAt(answers.length() - 1));
            assertEquals(0, answers.charAt(3), "SOCKS5 reply: succeeded");
            Libc.LIBC.shutdown(relay.session, 1);
            assertEquals("", HandOffRelay.readAll(relay.session));
            HandOffRelay.write(relay.upstream, "socks");
            Libc.LIBC.shutdown(relay.upstream, 1);
            assertEquals("pong", HandOffRelay.readAll(relay.upstream));
            relay.report(5, 4, 0);
        }
        assertEquals(List.of("socks"), granted.await(1));
        s.close();
        EgressDecision d = s.decisions().get(0);
        assertEquals("socks5", d.protocol());
        assertEquals(5, d.bytesUp());
        assertEquals(4, d.bytesDown());
    }

    @Test
    void withoutAReportTheRecordSaysSoAndKeepsOnlyWhatTheProxyForwarded() throws Exception {
        MediationSession s = session();
        RelayEndpoint e = s.relay().orElseThrow();
        try (HandOffRelay relay = new HandOffRelay(e.socket(), HandOffRelay.CAPABILITY, e.preamble())) {
            HandOffRelay.write(relay.session, "CONNECT granted.test:" + granted.port() + " HTTP/1.1\r\n\r\nab");
            assertTrue(relay.untilMarker().endsWith("H"));
            Libc.LIBC.shutdown(relay.session, 1);
            HandOffRelay.readAll(relay.session);
            Libc.LIBC.shutdown(relay.upstream, 1);
            HandOffRelay.readAll(relay.upstream);
        } // the relay "dies": the report socket closes without a report
        assertEquals(List.of("ab"), granted.await(1));
        s.close();
        EgressDecision d = s.decisions().get(0);
        assertEquals(2, d.bytesUp());
        assertTrue(d.reason().orElseThrow().contains("without reporting"), d.toString());
    }

    @Test
    void aRefusedDestinationHandsNothingOverAndReachesNothing() throws Exception {
        MediationSession s = session();
        RelayEndpoint e = s.relay().orElseThrow();
        try (HandOffRelay relay = new HandOffRelay(e.socket(), HandOffRelay.CAPABILITY, e.preamble())) {
            HandOffRelay.write(relay.session, "CONNECT other.test:" + granted.port() + " HTTP/1.1\r\n\r\n");
            String answers = relay.untilMarker();
            assertTrue(answers.startsWith("HTTP/1.1 403") && answers.endsWith("<end>"), answers);
            assertEquals(-1, relay.upstream, "no descriptor was handed over");
        }
        s.close();
        assertEquals(List.of(), granted.received(), "nothing reached the origin");
        assertEquals(EgressVerdict.DENIED, s.decisions().get(0).verdict());
    }

    @Test
    void aMalformedCapabilityIsRefusedBeforeAnyRequest() throws Exception {
        MediationSession s = session();
        RelayEndpoint e = s.relay().orElseThrow();
        // The proxy refuses at the capability and may close before the rest is written: that is the behaviour asserted.
        try (HandOffRelay relay = new HandOffRelay(e.socket(), new byte[] {(byte) 0xFF, 'A', 'X', 1}, e.preamble(),
                true)) {
            HandOffRelay.writeUnlessClosed(relay.session, ("CONNECT granted.test:" + granted.port()
                    + " HTTP/1.1\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            assertEquals("<end>", relay.untilMarker());
        }
        s.close();
        assertEquals(List.of(), granted.received(), "nothing reached the origin");
        assertTrue(s.decisions().get(0).reason().orElseThrow().contains("malformed relay capability"),
                s.decisions().toString());
    }

    @Test
    void noSessionCredentialBeginsWithTheCapabilityByte() throws Exception {
        for (int i = 0; i < 2000; i++) {
            assertTrue(Gate.forRelay().preamble().orElseThrow()[0] != (byte) 0xFF);
        }
    }
}
