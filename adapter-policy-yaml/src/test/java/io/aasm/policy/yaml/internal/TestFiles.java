package io.aasm.policy.yaml.internal;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** Locates test resource files on disk (the corpus is read through {@code load(Path)}, like a real run). */
final class TestFiles {
    private TestFiles() {
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
