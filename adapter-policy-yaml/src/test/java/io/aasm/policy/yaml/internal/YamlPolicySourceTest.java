package io.aasm.policy.yaml.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.policy.SourceLocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service surface: file names, the size limit at its exact boundary, I/O failures, problem order. */
class YamlPolicySourceTest {
    private static final int LIMIT = 256 * 1024;
    private static final String HEADER = "apiVersion: aasm/v1\nkind: Policy\nprocess: {max: 8}\n";
    private final YamlPolicySource source = new YamlPolicySource();

    @Test
    void acceptsYamlFileNamesOnly() {
        assertEquals("yaml", source.format());
        assertTrue(source.accepts(Path.of("/etc/aasm/policy.yaml")));
        assertTrue(source.accepts(Path.of("policy.YML")));
        assertFalse(source.accepts(Path.of("policy.json")));
        assertFalse(source.accepts(Path.of("yaml")));
        assertFalse(source.accepts(Path.of("/")));
    }

    /** A file of exactly 256 KiB loads; one byte more is refused before any parsing. */
    @Test
    void sizeLimitIsExact(@TempDir Path dir) throws IOException {
        Path atLimit = dir.resolve("at-limit.yaml");
        Files.writeString(atLimit, padded(LIMIT), StandardCharsets.UTF_8);
        assertEquals(LIMIT, Files.size(atLimit));
        assertInstanceOf(PolicyLoad.Loaded.class, source.load(atLimit));

        Path over = dir.resolve("over.yaml");
        Files.writeString(over, padded(LIMIT + 1), StandardCharsets.UTF_8);
        PolicyProblem p = single(source.load(over));
        assertEquals(new SourceLocation(over.toString(), 0, 0), p.where());
        assertTrue(p.message().contains("too large (262145 bytes; the limit is 262144 bytes"), p.message());

        assertTrue(single(source.parse("inline", padded(LIMIT + 1))).message().contains("too large"));
        assertInstanceOf(PolicyLoad.Loaded.class, source.parse("inline", padded(LIMIT)));
    }

    private static String padded(int bytes) {
        StringBuilder b = new StringBuilder(HEADER);
        while (b.length() < bytes) {
            b.append(b.length() + 80 <= bytes ? "#" + "x".repeat(78) + "\n" : "#");
        }
        b.setLength(bytes);
        b.setCharAt(bytes - 1, '\n');
        return b.toString();
    }

    @Test
    void unreadableFilesAreProblemsAtLineZero(@TempDir Path dir) {
        Path missing = dir.resolve("missing.yaml");
        PolicyProblem p = single(source.load(missing));
        assertEquals(0, p.where().line());
        assertTrue(p.message().startsWith("cannot read the policy file"), p.message());
        assertTrue(single(source.load(dir)).message().startsWith("cannot read the policy file"));
    }

    @Test
    void problemsComeInFileOrder() {
        PolicyLoad load = source.load(TestFiles.corpus("many-problems"));
        List<PolicyProblem> problems = assertInstanceOf(PolicyLoad.Rejected.class, load).problems();
        assertEquals(4, problems.size(), problems.toString());
        assertEquals(problems.stream().sorted(Comparator.comparingInt((PolicyProblem q) -> q.where().line())
                .thenComparingInt(q -> q.where().column())).toList(), problems);
    }

    @Test
    void renderedProblemNamesFileLineColumnAndWhatToDo() {
        PolicyProblem p = single(source.parse("p.yaml", "apiVersion: aasm/v1\nkind: Policy\nsyscalls: {deny: []}\n"));
        assertEquals("p.yaml:3:12: syscalls.deny is empty (a deny list is not a grant list: name the syscalls to deny,"
                + " use allow: [] to deny all, or remove syscalls)", p.render());
    }

    /** Far deeper than any parser cap: one clear problem, not a second one from the parser's own limit. */
    @Test
    void hostileNestingGivesOneProblem() {
        String text = "apiVersion: aasm/v1\nkind: Policy\nmetadata: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n";
        PolicyProblem p = single(source.parse("deep", text));
        assertEquals("deep:3:22: the policy nests deeper than 12 levels (a policy is at most 6 levels deep;"
                + " flatten or remove this node)", p.render());
    }

    @Test
    void aFloodOfProblemsIsCapped() {
        StringBuilder b = new StringBuilder("apiVersion: aasm/v1\nkind: Policy\n");
        for (int i = 0; i < 5000; i++) {
            b.append("k").append(i).append(": 1\n");
        }
        List<PolicyProblem> problems = assertInstanceOf(PolicyLoad.Rejected.class, source.parse("flood", b.toString()))
                .problems();
        assertEquals(201, problems.size());
        assertEquals("4800 more problems after this one are not listed", problems.get(200).message());
    }

    private static PolicyProblem single(PolicyLoad load) {
        List<PolicyProblem> problems = assertInstanceOf(PolicyLoad.Rejected.class, load).problems();
        assertEquals(1, problems.size(), problems.toString());
        return problems.get(0);
    }
}
