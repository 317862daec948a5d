package io.aasm.transport.proxy.internal.session;

import static io.aasm.transport.proxy.internal.session.Sessions.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.aasm.ports.transport.MediationSession;
import io.aasm.transport.proxy.internal.ProxyMediator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real client (curl) given nothing but the session's environment: plain HTTP through the absolute form,
 * CONNECT, and SOCKS5 with the name resolved by the proxy each reach the granted stand-in host; an ungranted
 * one gets 403 and nothing reaches it.
 */
class CurlThroughSessionTest {
    static final String CURL = "/usr/bin/curl";
    static final String OK = "HTTP/1.0 200 OK\r\nContent-Length: 4\r\nContent-Type: text/plain\r\n\r\npong";

    @TempDir
    Path state;

    @Test
    void curlUsesTheSessionVariablesAndOnlyTheGrantedHostIsReached() throws Exception {
        if (!Files.isExecutable(Path.of(CURL))) {
            fail("environment cannot host this check: " + CURL + " is not installed (.ci/run installs curl)");
        }
        ProxyMediator mediator = Sessions.mediator(state, Map.of());
        try (Origin granted = new Origin("127.0.0.2", OK); Origin other = new Origin("127.0.0.3", OK)) {
            MediationSession s = Sessions.loopback(mediator, List.of(tcp("granted.test", granted.port())),
                    Map.of("granted.test", "127.0.0.2", "other.test", "127.0.0.3"));
            String url = "http://granted.test:" + granted.port() + "/";
            assertEquals("pong", curl(s, url));
            assertEquals("pong", curl(s, "--proxytunnel", url));
            assertEquals("pong", curl(s, "--proxy", s.environment().get("all_proxy"), url));
            assertEquals("403", curl(s, "-o", "/dev/null", "-w", "%{http_code}", "http://other.test:" + other.port() + "/"));
            s.close();
            List<String> got = granted.await(3);
            assertEquals(3, got.size());
            assertTrue(got.get(0).startsWith("GET / HTTP/1.1\r\nHost: granted.test:" + granted.port()), got.get(0));
            assertEquals(List.of(), other.received());
            assertEquals(List.of("http", "http-connect", "socks5", "http"),
                    s.decisions().stream().map(d -> d.protocol()).toList());
            assertEquals(3, s.tally().allowed());
            assertEquals(1, s.tally().denied());
        }
    }

    private static String curl(MediationSession s, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(CURL, "-sS", "--max-time", "10"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.environment().putAll(s.environment());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        return out;
    }
}
