package io.aasm.policy.yaml.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicyProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random mutations of a valid policy (fixed seed, so failures reproduce): the source must answer with
 * Loaded or Rejected every time, and never reach its internal-error safety net.
 */
class FuzzTest {
    private static final int ROUNDS = 600;
    private static final List<String> FRAGMENTS = List.of("&a ", "*a", "!!str ", "!x ", "\t", "- ", "{", "}", "[",
            "]", ": ", ":", "---\n", "...\n", "\"", "'", "#", "\n  ", "\n", "0x1F", "..", "/", "-1", "0",
            "99999999999999999999999", "\u0000", "\u0001", "\uFEFF", "é", "?", "|", ">", "%YAML 1.2\n", "<<: ",
            "~", "null", "yes", ",", "allow: []", "deny: []", "1.5", "  ", "loopback", "/../", "@", "`");
    private final YamlPolicySource source = new YamlPolicySource();

    @Test
    void mutatedPoliciesAreLoadedOrRejectedNeverThrown(@TempDir Path dir) throws IOException {
        String base = Files.readString(TestFiles.resource("valid/complete.yaml"), StandardCharsets.UTF_8);
        Random random = new Random(20261129L);
        int loaded = 0;
        int rejected = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String text = mutate(base, random, 1 + random.nextInt(4));
            String origin = "fuzz-" + round;
            PolicyLoad result;
            try {
                result = round % 3 == 0 ? viaFile(dir, round, text) : source.parse(origin, text);
            } catch (RuntimeException e) {
                fail("round " + round + " threw for input:\n" + text, e);
                return;
            }
            assertNotNull(result, "round " + round);
            if (result instanceof PolicyLoad.Rejected r) {
                rejected++;
                for (PolicyProblem p : r.problems()) {
                    assertFalse(p.message().startsWith("internal error"), "round " + round + ": " + p.render()
                            + "\ninput:\n" + text);
                    assertTrue(p.where().line() >= 0 && p.where().column() >= 0, p.render());
                    if (round % 3 != 0) {
                        assertEquals(origin, p.where().file());
                    }
                }
            } else {
                loaded++;
            }
        }
        System.out.println("fuzz: " + ROUNDS + " mutations, loaded=" + loaded + " rejected=" + rejected);
        assertEquals(ROUNDS, loaded + rejected);
        // Both outcomes must occur, or the mutations are not exercising the reader.
        assertTrue(loaded > 0 && rejected > 0, "loaded=" + loaded + " rejected=" + rejected);
    }

    private PolicyLoad viaFile(Path dir, int round, String text) throws IOException {
        Path file = dir.resolve("fuzz-" + round + ".yaml");
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (round % 2 == 0 && bytes.length > 10) {
            bytes[bytes.length / 2] = (byte) 0xC3; // sometimes a broken UTF-8 sequence
        }
        Files.write(file, bytes);
        return source.load(file);
    }

    static String mutate(String text, Random random, int edits) {
        StringBuilder b = new StringBuilder(text);
        for (int i = 0; i < edits; i++) {
            int at = random.nextInt(b.length() + 1);
            switch (random.nextInt(5)) {
                case 0 -> b.insert(at, FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
                case 1 -> {
                    if (at < b.length()) {
                        b.deleteCharAt(at);
                    }
                }
                case 2 -> {
                    int end = Math.min(b.length(), at + random.nextInt(20));
                    b.delete(at, end);
                }
                case 3 -> {
                    int from = random.nextInt(b.length());
                    int end = Math.min(b.length(), from + random.nextInt(40));
                    b.insert(at, b.substring(from, end));
                }
                default -> b.setLength(Math.min(b.length(), at));
            }
            if (b.length() == 0) {
                b.append(text, 0, 10);
            }
        }
        return b.toString();
    }
}
