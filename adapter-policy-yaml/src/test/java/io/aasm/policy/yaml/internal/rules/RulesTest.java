package io.aasm.policy.yaml.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.policy.yaml.internal.tree.YNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The value rules on their own, including the edge cases the corpus does not spell out. */
class RulesTest {
    @SuppressWarnings("unchecked")
    private static <T> T ok(Checked<T> c) {
        return ((Checked.Ok<T>) assertInstanceOf(Checked.Ok.class, c, c::toString)).value();
    }

    @ParameterizedTest
    @CsvSource({"/,/", "/usr/,/usr", "//etc///ssl/,/etc/ssl", "/a/./b/.,/a/b", "/./,/", "/a b/c,/a b/c"})
    void pathsAreNormalised(String raw, String expected) {
        assertEquals(expected, ok(PathRules.normalise(raw)));
    }

    /** A bidi override, zero-width mark or C1 control is refused by code point and never echoed; plain non-ASCII passes. */
    @ParameterizedTest
    @ValueSource(strings = {"/usr/\u202Elib", "/home/\u200Bbob", "/a/\u0085b", "/a\u2028b", "/x/\uDB40\uDC41"})
    void invisibleCharactersAreRefusedByCodePoint(String raw) {
        Checked.Bad<String> bad = assertInstanceOf(Checked.Bad.class, PathRules.normalise(raw));
        assertTrue(bad.message().contains("U+"), bad.message());
        assertTrue(bad.message().chars().allMatch(c -> c >= 0x20 && c < 0x7f), bad.message());
        assertEquals("/usr/lib/caf\u00e9", ok(PathRules.normalise("/usr/lib/caf\u00e9")));
    }

    @Test
    void collapseIsComponentAware() {
        assertEquals(List.of("/workspace", "/workspace-other"),
                PathRules.collapse(List.of("/workspace/src", "/workspace-other", "/workspace", "/workspace")));
        assertEquals(List.of("/"), PathRules.collapse(List.of("/usr", "/", "/etc")));
        // '-' sorts before '/': an unrelated sibling between a folder and its child must not hide the child's
        // ancestor, nor be taken for one.
        assertEquals(List.of("/a", "/a-b"), PathRules.collapse(List.of("/a/b/c", "/a-b/c", "/a-b", "/a", "/a/b")));
        assertEquals(List.of("/a-b/c", "/a/b"), PathRules.collapse(List.of("/a/b/c", "/a-b/c", "/a/b")));
    }

    @Test
    void collapseKeepsOnlyTheOutermostOfManyPaths() {
        List<String> many = new java.util.ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            many.add("/s/p" + i + "/x");
            many.add("/s/p" + i);
        }
        List<String> kept = PathRules.collapse(many);
        assertEquals(10_000, kept.size());
        assertTrue(kept.stream().noneMatch(p -> p.endsWith("/x")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"loopback", "10.0.0.1", "0.0.0.0/0", "192.168.0.0/16", "::1", "2001:db8::/32", "::/0",
        "fe80::1", "example.com", "a-b.example.org", "xn--bcher-kva.example", "localhost", "EXAMPLE.com"})
    void egressHostsAccepted(String host) {
        assertInstanceOf(Checked.Ok.class, HostRules.egressHost(host), host);
    }

    @ParameterizedTest
    @ValueSource(strings = {"010.0.0.1", "1.2.3", "256.0.0.0", "10.0.0.0/33", "10.0.0.0/8x", "::1/129", "fe80::1/8",
        "g::1", "-example.com", "example-.com", "exa mple.com", "example..com", "*.example.com", "a.b.c.d.e/1", ""})
    void egressHostsRejected(String host) {
        assertInstanceOf(Checked.Bad.class, HostRules.egressHost(host), host);
    }

    @ParameterizedTest
    @CsvSource({"4096,4096", "1K,1024", "1KiB,1024", "512MiB,536870912", "2G,2147483648", "1T,1099511627776",
        "7B,7"})
    void sizesAreBinary(String text, long bytes) {
        YNode.Scalar s = new YNode.Scalar(1, 1, text.matches("[0-9]+") ? YNode.ScalarKind.INTEGER
                : YNode.ScalarKind.STRING, text);
        assertEquals(bytes, (long) ok(NumberRules.size(s, 1L << 50)));
    }

    @Test
    void syscallTableCoversCommonNamesAndSuggests() {
        for (String name : List.of("read", "openat", "ptrace", "mount", "execve", "clone3", "newfstatat",
                "landlock_restrict_self", "io_uring_setup", "exit_group")) {
            assertInstanceOf(Checked.Ok.class, SyscallNames.check(name), name);
        }
        assertTrue(SyscallNames.known().size() > 300, "table has " + SyscallNames.known().size() + " names");
        assertTrue(SyscallNames.known().stream().allMatch(n -> n.matches("[a-z_][a-z0-9_]*")));
        Checked.Bad<?> bad = assertInstanceOf(Checked.Bad.class, SyscallNames.check("opnat"));
        assertTrue(bad.hint().startsWith("did you mean 'openat'?"), bad.hint());
    }

    @Test
    void suggestionsStayClose() {
        assertEquals(Optional.of("filesystem"), Suggest.nearest("filesytem", List.of("filesystem", "network")));
        assertEquals(Optional.empty(), Suggest.nearest("completely", List.of("filesystem", "network")));
    }
}
