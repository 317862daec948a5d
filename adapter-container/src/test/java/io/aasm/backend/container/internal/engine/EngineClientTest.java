package io.aasm.backend.container.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's own decisions: where the engine is, how a response is read, how versions compare. */
class EngineClientTest {
    @TempDir
    Path t;

    @Test
    void theSocketIsFoundInTheDockerClientsOrderAndOnlyOnThisHost() throws Exception {
        Path sock = t.resolve("d.sock");
        try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(sock));
            EngineSocket.Located viaEnv = EngineSocket.locate(Optional.empty(), Map.of("DOCKER_HOST", "unix://" + sock));
            assertEquals(sock, ((EngineSocket.Located.Found) viaEnv).socket());
            EngineSocket.Located rootless = EngineSocket.locate(Optional.empty(), Map.of("XDG_RUNTIME_DIR", t.toString()));
            assertInstanceOf(EngineSocket.Located.Missing.class, rootless, "docker.sock is not in " + t);
            assertInstanceOf(EngineSocket.Located.Found.class, EngineSocket.locate(Optional.of(sock), Map.of()));
        }
        EngineSocket.Located tcp = EngineSocket.locate(Optional.empty(), Map.of("DOCKER_HOST", "tcp://1.2.3.4:2375"));
        assertTrue(((EngineSocket.Located.Missing) tcp).reason().contains("not a unix:// socket"));
    }

    @Test
    void aResponseIsItsHeadAndEverythingAfterIt() throws IOException {
        Http.Response r = Http.parse("HTTP/1.0 201 Created\r\nApi-Version: 1.41\r\n\r\n{\"Id\":\"x\"}"
                .getBytes(StandardCharsets.US_ASCII));
        assertEquals(201, r.status());
        assertEquals("1.41", r.header("api-version").orElseThrow());
        assertEquals("{\"Id\":\"x\"}", r.text());
        assertThrows(IOException.class, () -> Http.parse("HTTP/1.0 200 OK\r\n".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void versionsCompareNumerically() {
        assertTrue(ApiVersion.parse("1.9").compareTo(ApiVersion.parse("1.41")) < 0);
        assertTrue(ApiVersion.parse("1.44").compareTo(Engine.TESTED) > 0);
        assertThrows(IllegalArgumentException.class, () -> ApiVersion.parse("v1.41"));
    }
}
