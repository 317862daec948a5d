package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Status readers run on kept threads, but never wait for one another: a reader blocks until its launcher ends, so a
 * second launch's reader must get a thread of its own while the first still blocks.
 */
class StatusThreadsTest {
    private static CompletableFuture<Thread> readOn(long pid, CountDownLatch release) {
        CompletableFuture<Thread> ran = new CompletableFuture<>();
        StatusThreads.read(() -> {
            ran.complete(Thread.currentThread());
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, pid);
        return ran;
    }

    @Test
    void aReaderWhileAnotherBlocksRunsAtOnceOnAnotherThread() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        Thread a = readOn(1, first).get(5, TimeUnit.SECONDS);
        assertEquals("aasm-launch-status-1", a.getName(), "named for its launcher while it reads");
        CountDownLatch second = new CountDownLatch(1);
        Thread b = readOn(2, second).get(5, TimeUnit.SECONDS); // would time out if it queued behind the first
        assertNotSame(a, b);
        first.countDown();
        second.countDown();
    }

    @Test
    void aReaderAfterAnotherHasEndedReusesItsThread() throws Exception {
        CountDownLatch done = new CountDownLatch(0);
        Thread a = readOn(3, done).get(5, TimeUnit.SECONDS);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        // back in the pool: renamed, and parked in the pool's timed wait for the next reader
        while (!("aasm-launch-status-idle".equals(a.getName()) && a.getState() == Thread.State.TIMED_WAITING)
                && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertEquals("aasm-launch-status-idle", a.getName(), "back in the pool, not named for a launch");
        Thread b = readOn(4, done).get(5, TimeUnit.SECONDS);
        assertSame(a, b, "no thread started and ended per launch");
        assertTrue(a.isDaemon(), "a kept reader never holds the JVM up");
    }
}
