package io.aasm.kernel.internal.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyCacheTest {

    @TempDir
    Path dir;

    private final AtomicInteger reads = new AtomicInteger();

    private PolicyLoad read(Path p) {
        reads.incrementAndGet();
        try {
            return new PolicyLoad.Loaded(Policy.empty(Files.readString(p)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void anUnchangedFileIsReadOnceAndAnyChangeReloadsIt() throws Exception {
        PolicyCache cache = new PolicyCache();
        PolicySource source = new Source();
        Path p = Files.writeString(dir.resolve("p.yaml"), "one");
        PolicyLoad first = cache.load(source, p, () -> read(p));
        assertSame(first, cache.load(source, p, () -> read(p)));
        assertEquals(1, reads.get());

        Files.writeString(p, "two"); // same size: only the times and content differ
        PolicyLoad second = cache.load(source, p, () -> read(p));
        assertEquals("two", ((PolicyLoad.Loaded) second).policy().origin());
        assertEquals(2, reads.get());

        Path other = Files.writeString(dir.resolve("q.yaml"), "two");
        cache.load(source, other, () -> read(other));
        assertEquals(3, reads.get(), "another file is another entry");
        cache.load(new Source(), p, () -> read(p));
        assertEquals(4, reads.get(), "another policy source never shares an entry");
    }

    @Test
    void aFileThatCannotBeStattedIsNeverCached() {
        PolicyCache cache = new PolicyCache();
        Path missing = dir.resolve("missing.yaml");
        PolicyLoad rejected = new PolicyLoad.Rejected(java.util.List.of(new io.aasm.ports.policy.PolicyProblem(
                new io.aasm.ports.policy.SourceLocation("missing.yaml", 0, 0), "missing", "create it")));
        cache.load(new Source(), missing, () -> {
            reads.incrementAndGet();
            return rejected;
        });
        cache.load(new Source(), missing, () -> {
            reads.incrementAndGet();
            return rejected;
        });
        assertEquals(2, reads.get());
    }

    private static final class Source implements PolicySource {
        @Override
        public String format() {
            return "test";
        }

        @Override
        public boolean accepts(Path file) {
            return true;
        }

        @Override
        public PolicyLoad load(Path file) {
            throw new UnsupportedOperationException();
        }

        @Override
        public PolicyLoad parse(String origin, String text) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<String> jsonSchema() {
            return Optional.empty();
        }
    }
}
