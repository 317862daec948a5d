package io.aasm.policy.yaml.internal;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** Locates test resource files on disk (the corpus is read through {@code load(Path)}, like a real run). */
final class TestFiles {
    private TestFiles() {
    }

    /** A malformed-corpus file by its name without the number, e.g. {@code syscalls-both}. */
    static Path corpus(String name) {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(resource("malformed"))) {
            return files.filter(f -> f.getFileName().toString().matches("[0-9]+-" + name + "\\.yaml"))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("no corpus case " + name));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Path resource(String name) {
        URL url = TestFiles.class.getResource("/" + name);
        if (url == null) {
            throw new IllegalArgumentException("missing test resource " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
