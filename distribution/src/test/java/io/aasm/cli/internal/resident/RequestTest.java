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

    private static ResidentLimits limits(int maxArgs, int maxEnv, int maxString) {
        ResidentLimits d = ResidentLimits.DEFAULTS;
        return new ResidentLimits(d.maxConnections(), d.maxLaunches(), d.launchQueue(), d.maxRequestBytes(),
                d.requestTimeoutMs(), maxArgs, maxEnv, maxString, d.logMaxBytes(), d.logFiles());
    }

    private static byte[] withArgs(int argc, String... env) {
        List<String> parts = new java.util.ArrayList<>(List.of("1", "/h", "/w", Integer.toString(argc)));
        for (int i = 0; i < argc; i++) {
            parts.add("a" + i);
        }
        parts.add(Integer.toString(env.length));
        parts.addAll(List.of(env));
        return payload(parts.toArray(new String[0]));
    }

    @Test
    void argumentsAboveTheLimitAreRefusedByCountTheLimitItselfIsServed() {
        RequestException e = assertThrows(RequestException.class, () -> Request.parse(withArgs(101), limits(100, 10, 64)));
        assertEquals("too_many_args", e.reason());
        assertEquals("too many arguments: 101, at most 100 (aasm.resident.max.args)", e.getMessage());
        assertEquals(100, Request.parse(withArgs(100), limits(100, 10, 64)).args().size());
        // a count no payload could carry is "too many", said before any argument is read
        RequestException huge = assertThrows(RequestException.class,
                () -> Request.parse(payload("1", "/h", "/w", "99999999999999999999"), limits(100, 10, 64)));
        assertEquals("too_many_args", huge.reason());
    }

    @Test
    void environmentEntriesAboveTheLimitAreRefusedTheLimitItselfIsServed() {
        RequestException e = assertThrows(RequestException.class,
                () -> Request.parse(withArgs(1, "A=1", "B=2", "C=3"), limits(100, 2, 64)));
        assertEquals("too_many_env", e.reason());
        assertTrue(e.getMessage().contains("3, at most 2 (aasm.resident.max.env)"), e.getMessage());
        assertEquals(2, Request.parse(withArgs(1, "A=1", "B=2"), limits(100, 2, 64)).env().size());
    }

    @Test
    void aStringAboveTheLimitIsRefusedWithoutRepeatingIt() {
        String secret = "S=" + "x".repeat(63);
        RequestException e = assertThrows(RequestException.class,
                () -> Request.parse(withArgs(1, secret), limits(100, 10, 64)));
        assertEquals("string_too_long", e.reason());
        assertTrue(e.getMessage().startsWith("environment entry 1 of the 1 environment entries it announces is 65 bytes"
                + " long, at most 64"), e.getMessage());
        assertTrue(!e.getMessage().contains("xxx"), e.getMessage());
        String justFits = "S=" + "x".repeat(62);
        assertEquals(Map.of("S", "x".repeat(62)), Request.parse(withArgs(1, justFits), limits(100, 10, 64)).env());
    }

    @Test
    void aMiscountedRequestNeverEchoesWhatItCarries() {
        // one argument more than announced: what stands where a count should be is not in the message
        RequestException e = assertThrows(RequestException.class,
                () -> Request.parse(payload("1", "/h", "/w", "0", "TOKEN=hunter2", "1", "A=1"), limits(100, 10, 64)));
        assertEquals("counts", e.reason());
        assertTrue(!e.getMessage().contains("hunter2"), e.getMessage());
    }
}
