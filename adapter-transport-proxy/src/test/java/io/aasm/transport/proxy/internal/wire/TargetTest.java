package io.aasm.transport.proxy.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class TargetTest {
    @Test
    void connectAuthority() throws Exception {
        assertEquals(new Target("pypi.org", 443, ""), Target.authority("pypi.org:443"));
        assertEquals(new Target("::1", 8443, ""), Target.authority("[::1]:8443"));
        for (String bad : List.of("pypi.org", "[::1]", "::1:443", "user@h:443", "h:99999x", ":443", "h:")) {
            assertThrows(HttpHead.Malformed.class, () -> Target.authority(bad), bad);
        }
    }

    @Test
    void absoluteForm() throws Exception {
        assertEquals(new Target("h.test", 80, "/a?b=1"), Target.absolute("http://h.test/a?b=1"));
        assertEquals(new Target("h.test", 8080, "/"), Target.absolute("HTTP://h.test:8080"));
        assertEquals(new Target("h.test", 81, "/?q"), Target.absolute("http://h.test:81?q"));
        for (String bad : List.of("https://h.test/", "/index.html", "ftp://h/", "http://u:p@h.test/", "http:///x")) {
            assertThrows(HttpHead.Malformed.class, () -> Target.absolute(bad), bad);
        }
    }
}
