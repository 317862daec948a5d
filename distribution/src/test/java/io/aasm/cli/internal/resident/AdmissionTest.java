package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class AdmissionTest {
    private static Admission admission(int connections, int launches, int queue) {
        ResidentLimits d = ResidentLimits.DEFAULTS;
        return new Admission(new ResidentLimits(connections, launches, queue, d.maxRequestBytes(),
                d.requestTimeoutMs(), d.maxArgs(), d.maxEnv(), d.maxStringBytes(), d.logMaxBytes(), d.logFiles()));
    }

    @Test
    void connectionsUpToTheBoundOneMoreRefusedAReleasedSlotServesAgain() {
        Admission a = admission(2, 1, 0);
        assertTrue(a.tryConnection());
        assertTrue(a.tryConnection());
        assertFalse(a.tryConnection());
        a.releaseConnection();
        assertTrue(a.tryConnection());
    }

    @Test
    void aLaunchWaitsInTheQueueOneMoreIsRefusedTheWaitingOneRunsWhenASlotFrees() throws Exception {
        Admission a = admission(8, 1, 1);
        assertEquals(Admission.Slot.GRANTED, a.enterLaunch(() -> false, () -> { }));
        CountDownLatch queued = new CountDownLatch(1);
        CompletableFuture<Admission.Slot> second = CompletableFuture.supplyAsync(() -> {
            try {
                return a.enterLaunch(() -> false, queued::countDown);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(queued.await(30, TimeUnit.SECONDS));
        assertEquals(1, a.waiting());
        assertEquals(Admission.Slot.QUEUE_FULL, a.enterLaunch(() -> false, () -> { }));
        assertFalse(second.isDone(), "the queued request did not wait");
        a.releaseLaunch();
        assertEquals(Admission.Slot.GRANTED, second.get(30, TimeUnit.SECONDS));
        assertEquals(0, a.waiting());
        assertEquals(1, a.running());
    }

    @Test
    void aRequestWhoseClientLeftStopsWaitingAndTakesNoSlot() throws Exception {
        Admission a = admission(8, 1, 4);
        assertEquals(Admission.Slot.GRANTED, a.enterLaunch(() -> false, () -> { }));
        AtomicBoolean gone = new AtomicBoolean();
        CompletableFuture<Admission.Slot> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return a.enterLaunch(gone::get, () -> { });
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        gone.set(true);
        assertEquals(Admission.Slot.ABANDONED, waiting.get(30, TimeUnit.SECONDS));
        a.releaseLaunch();
        assertEquals(0, a.running(), "an abandoned request kept a slot");
        assertEquals(0, a.waiting());
    }
}
