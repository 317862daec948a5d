package io.aasm.kernel.internal.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A policy path that is a FIFO (or a directory) is refused at once and nothing opens it: a reader of a FIFO
 * with no writer would block for ever. Control: a regular file by the same name is read.
 */
class PolicyLoaderTest {
    @TempDir
    Path dir;

    private final AtomicInteger reads = new AtomicInteger();

    private final PolicySource source = new PolicySource() {
        @Override
        public String format() {
            return "test";
        }

        @Override
        public boolean accepts(Path file) {
            return file.getFileName().toString().endsWith(".yaml");
        }

        @Override
        public PolicyLoad parse(String origin, String text) {
            return new PolicyLoad.Loaded(Policy.empty(text));
        }

        @Override
        public Optional<String> jsonSchema() {
            return Optional.empty();
        }

        @Override
        public PolicyLoad load(Path file) {
            reads.incrementAndGet();
            try {
                return new PolicyLoad.Loaded(Policy.empty(Files.readString(file)));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    };

    @Test
    void aFifoIsRefusedWithoutBeingOpened() throws Exception {
        Path fifo = dir.resolve("policy.yaml");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(), "mkfifo");
        long t0 = System.nanoTime();
        PolicyLoad load = new PolicyLoader().load(Optional.of(fifo.toString()), List.of(source));
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30), "never blocked on the FIFO");
        PolicyLoad.Rejected r = assertInstanceOf(PolicyLoad.Rejected.class, load);
        assertTrue(r.problems().get(0).message().contains("not a regular file (a FIFO)"), r.toString());
        assertEquals(0, reads.get(), "nothing read it");
        PolicyLoad.Rejected folder = assertInstanceOf(PolicyLoad.Rejected.class, new PolicyLoader()
                .load(Optional.of(Files.createDirectory(dir.resolve("d.yaml")).toString()), List.of(source)));
        assertTrue(folder.problems().get(0).message().contains("a directory"), folder.toString());

        Files.delete(fifo);
        Files.writeString(fifo, "regular");
        PolicyLoad ok = new PolicyLoader().load(Optional.of(fifo.toString()), List.of(source));
        assertEquals("regular", assertInstanceOf(PolicyLoad.Loaded.class, ok).policy().origin(), "control");
    }
}
