package io.aasm.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.audit.internal.ChainedFile.HeadCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit: one force covers the records written while the previous force ran, and no append returns before
 * a force that began after its own write has ended. The first force is held (a latch in the wrapped force) until
 * the other appends have written their records, so the grouping is deterministic, not a matter of timing. The
 * control runs the same appends with group commit off: one force per record, under the append lock.
 */
class GroupSyncTest {
    @TempDir
    Path dir;

    /** A force that counts, records the file's line count when it began, and holds the first one until released. */
    private static final class HeldForce implements GroupSync.Force {
        final CountDownLatch firstEntered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger forces = new AtomicInteger();
        final AtomicLong linesCovered = new AtomicLong(); // lines on disk as of the last force that ended
        final Path file;

        HeldForce(Path file) {
            this.file = file;
        }

        @Override
        public void force(java.nio.channels.FileChannel ch) throws IOException {
            long lines = Files.readAllLines(file).size(); // every write that returned before this force began
            if (forces.incrementAndGet() == 1) {
                firstEntered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            ch.force(false);
            linesCovered.accumulateAndGet(lines, Math::max);
        }
    }

    private List<Long> appendConcurrently(boolean group, HeldForce force, int others) throws Exception {
        ChainedFile log = new ChainedFile(dir, HeadCache.CHECKED, group, force);
        ExecutorService pool = Executors.newFixedThreadPool(others + 1);
        try {
            List<Future<Long>> done = new ArrayList<>();
            // each append returns the forced line count it saw on return, and its own sequence number
            done.add(pool.submit(() -> appendAndCheck(log, force, 0)));
            if (group) {
                assertTrue(force.firstEntered.await(30, TimeUnit.SECONDS));
            }
            for (int i = 1; i <= others; i++) {
                int n = i;
                done.add(pool.submit(() -> appendAndCheck(log, force, n)));
            }
            if (group) {
                // the held force began with one record written; wait until the others have written theirs
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (Files.readAllLines(log.path()).size() < others + 1 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
            }
            force.release.countDown();
            List<Long> seqs = new ArrayList<>();
            for (Future<Long> f : done) {
                seqs.add(f.get(60, TimeUnit.SECONDS));
            }
            return seqs;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Appends one record; on return, a force that covered it must have ended. Returns its sequence number. */
    private static long appendAndCheck(ChainedFile log, HeldForce force, int n) throws IOException {
        String line = log.append(Map.of("n", n));
        long seq = Long.parseLong(line.replaceAll(".*\"seq\":(\\d+).*", "$1"));
        assertTrue(force.linesCovered.get() >= seq, "record " + seq + " returned before a force covered it ("
                + force.linesCovered.get() + ")");
        return seq;
    }

    @Test
    void oneForceCoversTheRecordsWrittenWhileTheFirstWasHeld() throws Exception {
        HeldForce force = new HeldForce(dir.resolve("audit.jsonl"));
        List<Long> seqs = appendConcurrently(true, force, 5);
        assertEquals(2, force.forces.get(), "the held force, then one for the five written meanwhile");
        assertEquals(6, seqs.stream().distinct().count());
        assertTrue(new JsonlAuditLog(dir).verify().intact());
        assertEquals(6, new JsonlAuditLog(dir).verify().records());
    }

    @Test
    void controlWithoutGroupCommitEveryRecordIsForcedOnItsOwn() throws Exception {
        HeldForce force = new HeldForce(dir.resolve("audit.jsonl"));
        List<Long> seqs = appendConcurrently(false, force, 5);
        assertEquals(6, force.forces.get());
        assertEquals(6, seqs.stream().distinct().count());
        assertTrue(new JsonlAuditLog(dir).verify().intact());
    }

    @Test
    void aFailedForceMarksNothingDurableAndTheNextAppendForcesAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ChainedFile log = new ChainedFile(dir, HeadCache.CHECKED, true, ch -> {
            if (calls.incrementAndGet() == 1) {
                throw new IOException("disk said no");
            }
            ch.force(false);
        });
        assertThrows(IOException.class, () -> log.append(Map.of("n", 1)));
        log.append(Map.of("n", 2));
        assertEquals(2, calls.get(), "the second append forced on its own: the failed one marked nothing");
        assertTrue(new JsonlAuditLog(dir).verify().intact());
        assertEquals(2, new JsonlAuditLog(dir).verify().records(), "the unforced record stays in the chain");
    }

    @Test
    void sequentialAppendsEachForce() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ChainedFile log = new ChainedFile(dir, HeadCache.CHECKED, true, ch -> {
            calls.incrementAndGet();
            ch.force(false);
        });
        for (int i = 0; i < 4; i++) {
            log.append(Map.of("n", i));
        }
        assertEquals(4, calls.get(), "nobody else wrote meanwhile: no force can be shared");
    }
}
