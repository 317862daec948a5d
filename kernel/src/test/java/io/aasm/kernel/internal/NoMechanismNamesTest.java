package io.aasm.kernel.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kernel never names a mechanism: not in its sources, not in its compiled classes or generated
 * descriptors (string constants end up in class files, so both are scanned).
 */
class NoMechanismNamesTest {

    private static final List<String> FORBIDDEN =
            List.of("landlock", "seccomp", "cgroup", "namespace", "sandlock", "bwrap", "bubblewrap");

    @Test
    void kernelSourcesAndClassesNameNoMechanism() throws IOException {
        List<Path> roots = List.of(Path.of("src/main"), Path.of("target/classes"));
        int scanned = 0;
        List<String> hits = new ArrayList<>();
        for (Path root : roots) {
            assertTrue(Files.isDirectory(root), "expected to scan " + root.toAbsolutePath());
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    scanned++;
                    String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
                    for (String word : FORBIDDEN) {
                        if (text.contains(word)) {
                            hits.add(f + ": " + word);
                        }
                    }
                }
            }
        }
        assertTrue(scanned > 20, "scanned only " + scanned + " files");
        assertEquals(List.of(), hits);
    }
}
