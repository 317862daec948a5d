package io.aasm.backend.container.internal.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The probes' scratch files, read by the supervisor after each launch ended. */
final class Scratch {
    private Scratch() {
    }

    static boolean contains(Path p, String needle) throws IOException {
        return Files.exists(p) && new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1).contains(needle);
    }

    static long size(Path p) throws IOException {
        return Files.exists(p) ? Files.size(p) : -1;
    }

    static String read(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
    }

    static void delete(Path p) {
        if (p == null) {
            return;
        }
        try (var walk = Files.walk(p)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        } catch (IOException e) {
            // scratch left behind in the temp directory
        }
    }
}
