package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * When the resident kernel gives its heap back: only after activity, only once the quiet period has passed with
 * no connection open, once per burst; and the collection it runs is a real full collection.
 */
class IdleCollectorTest {
    private static final long S = 1_000_000_000L;

    @Test
    void neverDueWithoutActivity() {
        assertEquals(Long.MAX_VALUE, IdleCollector.waitMillis(false, 0, 100 * S, 0, 35 * S));
    }

    @Test
    void dueOnlyAfterTheQuietPeriod() {
        assertEquals(5_000, IdleCollector.waitMillis(true, 10 * S, 40 * S, 0, 35 * S));
        assertEquals(0, IdleCollector.waitMillis(true, 10 * S, 45 * S, 0, 35 * S));
        assertEquals(0, IdleCollector.waitMillis(true, 10 * S, 500 * S, 0, 35 * S));
    }

    @Test
    void anOpenConnectionDefersItByAWholePeriod() {
        // control: the same moment with no connection open is due
        assertEquals(0, IdleCollector.waitMillis(true, 10 * S, 100 * S, 0, 35 * S));
        assertEquals(35_000, IdleCollector.waitMillis(true, 10 * S, 100 * S, 1, 35 * S));
    }

    @Test
    void theSettingIsSecondsOrOff() {
        assertEquals(IdleCollector.DEFAULT_SECONDS, IdleCollector.quietSeconds(null));
        assertEquals(0, IdleCollector.quietSeconds("0"));
        assertEquals(7, IdleCollector.quietSeconds(" 7 "));
        for (String bad : new String[] {"-1", "soon", "1.5", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> IdleCollector.quietSeconds(bad));
            assertTrue(e.getMessage().contains(IdleCollector.PROPERTY), e.getMessage());
        }
        assertEquals(null, IdleCollector.startIfEnabled(new IdleCollector(0, () -> 0, () -> { }, () -> { })));
    }

    @Test
    void collectsOncePerBurstAndEndsWhenInterrupted() throws InterruptedException {
        Semaphore collected = new Semaphore(0);
        AtomicInteger open = new AtomicInteger();
        AtomicInteger trims = new AtomicInteger();
        IdleCollector c = new IdleCollector(50_000_000L, open::get, collected::release, trims::incrementAndGet);
        Thread t = IdleCollector.startIfEnabled(c);
        try {
            c.activity();
            assertTrue(collected.tryAcquire(IdleCollector.COLLECTIONS, 30, TimeUnit.SECONDS),
                    "not all collections after a burst");
            // the trim follows the last collection: wait for it before the next burst, which would stop it
            awaitTrims(trims, 1);
            assertEquals(1, trims.get(), "the heap is trimmed once after the first burst's collections");
            // a second burst, with a connection held open: due only once it ends
            open.set(1);
            c.activity();
            open.set(0);
            c.activity();
            assertTrue(collected.tryAcquire(IdleCollector.COLLECTIONS, 30, TimeUnit.SECONDS),
                    "not all collections after the second burst");
            assertEquals(0, collected.availablePermits(), "collected more than once for one burst");
            awaitTrims(trims, 2);
            assertEquals(2, trims.get(), "the heap is trimmed once after each burst's collections");
        } finally {
            t.interrupt();
            t.join(30_000);
        }
        assertFalse(t.isAlive(), "the collector's thread outlived its interrupt");
    }

    @Test
    void aConnectionDuringTheCollectionsStopsTheRest() throws InterruptedException {
        Semaphore collected = new Semaphore(0);
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger trims = new AtomicInteger();
        IdleCollector[] self = new IdleCollector[1];
        self[0] = new IdleCollector(50_000_000L, () -> 0, () -> {
            if (calls.incrementAndGet() == 1) {
                self[0].activity(); // a client arrives during the first collection
            }
            collected.release();
        }, trims::incrementAndGet);
        Thread t = IdleCollector.startIfEnabled(self[0]);
        try {
            self[0].activity();
            // one collection, then the arrival stopped the sequence; after the next quiet period a whole one runs
            assertTrue(collected.tryAcquire(1 + IdleCollector.COLLECTIONS, 30, TimeUnit.SECONDS),
                    "the sequence did not run again after the next quiet period");
            assertEquals(1 + IdleCollector.COLLECTIONS, calls.get());
            // only the whole sequence trims: the stopped one must not hold the allocator while a request runs
            for (int i = 0; i < 100 && trims.get() == 0; i++) {
                Thread.sleep(20);
            }
            assertEquals(1, trims.get());
        } finally {
            t.interrupt();
            t.join(30_000);
        }
    }

    @Test
    void anIdleKernelIsNeverWokenToTrim() throws InterruptedException {
        AtomicInteger collections = new AtomicInteger();
        AtomicInteger trims = new AtomicInteger();
        IdleCollector c = new IdleCollector(20_000_000L, () -> 0, collections::incrementAndGet,
                trims::incrementAndGet);
        Thread t = IdleCollector.startIfEnabled(c);
        try {
            Thread.sleep(500); // 25 quiet periods with no activity at all: nothing to give back, nothing runs
            assertEquals(0, collections.get());
            assertEquals(0, trims.get());
            // control: the same kernel after one connection collects and trims once the quiet period has passed
            c.activity();
            for (int i = 0; i < 1500 && trims.get() == 0; i++) {
                Thread.sleep(20);
            }
            assertEquals(IdleCollector.COLLECTIONS, collections.get());
            assertEquals(1, trims.get());
            Thread.sleep(500); // and then it sleeps again
            assertEquals(1, trims.get());
        } finally {
            t.interrupt();
            t.join(30_000);
        }
    }

    @Test
    void theCollectionIsFullCollections() {
        long before = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(b -> Math.max(0, b.getCollectionCount())).sum();
        for (int i = 0; i < IdleCollector.COLLECTIONS; i++) {
            IdleCollector.collectOnce();
        }
        long after = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(b -> Math.max(0, b.getCollectionCount())).sum();
        // the effect, not the call: the JVM counted the collections (unless System.gc() is disabled, which the
        // kernel's JVM options never do)
        assertTrue(after - before >= IdleCollector.COLLECTIONS, (after - before) + " collections");
    }

    /** Waits (up to 30 s) until {@code trims} reaches {@code n}: the trim runs on the collector's thread after the
     * collections the test has already seen. Asserting without the wait raced it. */
    private static void awaitTrims(AtomicInteger trims, int n) throws InterruptedException {
        for (int i = 0; i < 1500 && trims.get() < n; i++) {
            Thread.sleep(20);
        }
    }
}
