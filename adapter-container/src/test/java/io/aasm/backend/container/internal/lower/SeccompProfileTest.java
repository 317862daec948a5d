package io.aasm.backend.container.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.ports.policy.SyscallMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The profile's decisions, on the bundled table: what is allowed, and the argument patterns' exact coverage. */
class SeccompProfileTest {
    private static final SyscallTable TABLE = SyscallTable.bundled().orElseThrow();

    static boolean matches(List<long[]> rules, long value) {
        return rules.stream().anyMatch(r -> (value & r[0]) == r[1]);
    }

    @Test
    void theIoctlPatternsAllowEveryCommandButTheTwoKeystrokeOnesWhateverTheUpperBits() {
        List<long[]> rules = SeccompProfile.excluding32(List.of(SeccompProfile.TIOCSTI, SeccompProfile.TIOCLINUX));
        assertFalse(matches(rules, 0x5412L), "TIOCSTI");
        assertFalse(matches(rules, 0x541CL), "TIOCLINUX");
        assertFalse(matches(rules, 0x5412L | 1L << 32), "TIOCSTI with upper bits the kernel ignores");
        assertFalse(matches(rules, 0x541CL | 0xFFFF_FFFF_0000_0000L), "TIOCLINUX with every upper bit");
        for (long ok : new long[] {0, 0x5413, 0x5401, 0x541B, 0x541D, 0x5410, 0x8000_0000L, 0xFFFF_FFFFL, 0x4004_5412L}) {
            assertTrue(matches(rules, ok), Long.toHexString(ok));
        }
        Random r = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            long v = r.nextLong();
            long low = v & 0xFFFF_FFFFL;
            assertEquals(low != 0x5412 && low != 0x541C, matches(rules, v), Long.toHexString(v));
        }
        assertEquals(35, rules.size(), "29 agreeing bits + 6 of the 8 patterns of the 3 differing bits");
    }

    private static JsonNode profile(Optional<SyscallMode> mode, List<String> names, boolean denyProcess) throws Exception {
        return new ObjectMapper().readTree(SeccompProfile.build(TABLE, new SeccompProfile.Concerns(mode, names, denyProcess)));
    }

    private static Map<String, List<JsonNode>> rulesByName(JsonNode p) {
        Map<String, List<JsonNode>> out = new TreeMap<>();
        p.path("syscalls").forEach(rule -> rule.path("names").forEach(n -> out.computeIfAbsent(n.asText(),
                k -> new ArrayList<>()).add(rule)));
        return out;
    }

    @Test
    void theBaselineIsDeniedAndEveryOtherKnownCallAllowedWhenSyscallsAreNotStated() throws Exception {
        JsonNode p = profile(Optional.empty(), List.of(), false);
        assertEquals("SCMP_ACT_ERRNO", p.path("defaultAction").asText());
        assertEquals(1, p.path("defaultErrnoRet").asInt());
        Map<String, List<JsonNode>> rules = rulesByName(p);
        for (String denied : SeccompProfile.HARDENING_BASELINE) {
            assertFalse(rules.containsKey(denied), denied + " must fall to the default EPERM");
        }
        assertTrue(rules.containsKey("openat") && rules.containsKey("fork") && rules.containsKey("socket"));
        JsonNode clone = rules.get("clone").get(0).path("args").get(0);
        assertEquals(SeccompProfile.CLONE_NAMESPACE_FLAGS, clone.path("value").asLong());
        assertEquals(0, clone.path("valueTwo").asLong());
        assertEquals(38, rules.get("clone3").get(0).path("errnoRet").asInt());
        assertEquals(35, rules.get("ioctl").size());
    }

    @Test
    void aDenyListRemovesItsNamesAndProcessDenialKeepsOnlyThreads() throws Exception {
        Map<String, List<JsonNode>> rules = rulesByName(profile(Optional.of(SyscallMode.DENY), List.of("mkdir", "mkdirat"),
                true));
        assertFalse(rules.containsKey("mkdir") || rules.containsKey("mkdirat") || rules.containsKey("fork")
                || rules.containsKey("vfork"));
        JsonNode clone = rules.get("clone").get(0).path("args").get(0);
        assertEquals(SeccompProfile.CLONE_NAMESPACE_FLAGS | SeccompProfile.CLONE_THREAD, clone.path("value").asLong());
        assertEquals(SeccompProfile.CLONE_THREAD, clone.path("valueTwo").asLong());
    }

    @Test
    void anAllowListIsItsNamesAndTheStartupSetButNeverTheBaseline() throws Exception {
        Set<String> allowed = SeccompProfile.allowed(TABLE, new SeccompProfile.Concerns(Optional.of(SyscallMode.ALLOW),
                List.of("getcwd", "ptrace"), false));
        assertTrue(allowed.contains("getcwd") && allowed.containsAll(SeccompProfile.STARTUP.stream()
                .filter(TABLE::knows).toList()));
        assertFalse(allowed.contains("ptrace"), "the baseline wins over an allow list");
        assertFalse(allowed.contains("mkdir"));
    }
}
