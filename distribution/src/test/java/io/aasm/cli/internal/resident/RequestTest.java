package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestTest {
    private static byte[] payload(String... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String p : parts) {
            b.writeBytes(p.getBytes(StandardCharsets.UTF_8));
            b.write(0);
        }
        return b.toByteArray();
    }

    @Test
    void parsesArgvEnvironmentAndDirectoryAsSent() {
        Request r = Request.parse(payload("1", "/opt/aasm", "/work", "3", "run", "exec", "", "2", "A=1", "B=x=y"));
        assertEquals("/opt/aasm", r.home());
        assertEquals("/work", r.cwd());
        assertEquals(List.of("run", "exec", ""), r.args());
        assertEquals(Map.of("A", "1", "B", "x=y"), r.env());
    }

    @Test
    void malformedRequestsAreRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Request.parse(payload("2", "/h", "/w", "0", "0")))
                .getMessage().contains("version"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Request.parse(payload("1", "/h", "/w", "5", "a", "0")))
                .getMessage().contains("5 arguments"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Request.parse(payload("1", "/h", "/w", "0", "2", "A=1")))
                .getMessage().contains("2 environment entries"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Request.parse(payload("1", "/h", "rel", "0", "0")))
                .getMessage().contains("not absolute"));
        byte[] unterminated = "1\0/h\0/w\0000\0000".getBytes(StandardCharsets.UTF_8);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Request.parse(unterminated))
                .getMessage().contains("NUL"));
    }
}
