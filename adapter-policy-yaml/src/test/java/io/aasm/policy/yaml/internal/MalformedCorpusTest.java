package io.aasm.policy.yaml.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicyProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The malformed-policy corpus: one case per file under malformed/, and one expected problem per row of
 * malformed/expectations.tsv (file, line, column, message substring, optional hint substring).
 */
class MalformedCorpusTest {
    private static final Path DIR = TestFiles.resource("malformed");
    private final YamlPolicySource source = new YamlPolicySource();

    record Expectation(String file, int line, int column, String message, String hint) {
        @Override
        public String toString() {
            return file + ":" + line + ":" + column + " ~ " + message;
        }
    }

    static List<Expectation> expectations() throws IOException {
        return Files.readAllLines(DIR.resolve("expectations.tsv"), StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(l -> l.split("\t", -1))
                .map(c -> new Expectation(c[0], Integer.parseInt(c[1]), Integer.parseInt(c[2]), c[3],
                        c.length > 4 ? c[4] : ""))
                .toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expectations")
    void rejectedWithLocationAndMessage(Expectation e) {
        Path file = DIR.resolve(e.file());
        PolicyLoad load = source.load(file);
        PolicyLoad.Rejected rejected = assertInstanceOf(PolicyLoad.Rejected.class, load, e.file() + " must be rejected");
        List<PolicyProblem> problems = rejected.problems();
        boolean found = problems.stream().anyMatch(p -> p.where().line() == e.line()
                && p.where().column() == e.column()
                && p.message().contains(e.message())
                && p.hint().contains(e.hint()));
        if (!found) {
            fail("expected " + e + " [hint ~ " + e.hint() + "], got:\n"
                    + problems.stream().map(PolicyProblem::render).collect(Collectors.joining("\n")));
        }
        for (PolicyProblem p : problems) {
            assertEquals(file.toString(), p.where().file(), "every problem names the file");
            assertFalse(p.hint().isBlank(), "every problem says what to do: " + p.render());
        }
    }

    @Test
    void corpusIsLargeAndEveryFileHasAnExpectation() throws IOException {
        Set<String> expected = expectations().stream().map(Expectation::file).collect(Collectors.toCollection(TreeSet::new));
        Set<String> files;
        try (Stream<Path> list = Files.list(DIR)) {
            files = list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(files, expected, "one expectation row (at least) per corpus file, and no row without a file");
        assertTrue(files.size() >= 60, "corpus has " + files.size() + " cases");
    }

    @Test
    void textEntryPointRejectsTheSameWay() throws IOException {
        for (Expectation e : expectations()) {
            byte[] bytes = Files.readAllBytes(DIR.resolve(e.file()));
            String text = new String(bytes, StandardCharsets.UTF_8);
            if (!java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes)) {
                continue; // not UTF-8: only the file entry point sees the raw bytes
            }
            assertInstanceOf(PolicyLoad.Rejected.class, source.parse(e.file(), text), e.file());
        }
    }
}
