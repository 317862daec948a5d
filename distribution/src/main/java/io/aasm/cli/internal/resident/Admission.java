package io.aasm.cli.internal.resident;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The kernel's two counted resources: connections served at once, and launches running at once with a
 * bounded queue of run requests waiting for one. Every refusal is immediate and says which bound was
 * reached; nothing here ever blocks the accepting thread.
 */
final class Admission {
    private final ResidentLimits limits;
    private final Semaphore connections;
    private final Semaphore launches;
    private final AtomicInteger waiting = new AtomicInteger();

    Admission(ResidentLimits limits) {
        this.limits = limits;
        this.connections = new Semaphore(limits.maxConnections());
        this.launches = new Semaphore(limits.maxLaunches(), true);
    }

    /** A connection slot, or false at the bound (the caller refuses the connection and says so). */
    boolean tryConnection() {
        return connections.tryAcquire();
    }

    void releaseConnection() {
        connections.release();
    }

    String connectionsRefusal() {
        return "aasm: the resident kernel is serving its maximum of " + limits.maxConnections()
                + " connections at once (aasm.resident.max.connections); refused this one, nothing was launched;"
                + " try again later";
    }

    /** What came of a run request's wait for a launch slot. */
    enum Slot {
        /** A slot is held: run, then {@link #releaseLaunch()}. */
        GRANTED,
        /** The queue is full: refused at once. */
        QUEUE_FULL,
        /** The client went away (or was signalled) while its request waited: nothing runs. */
        ABANDONED
    }

    /**
     * A launch slot: at once if one is free, else after waiting in the queue (checking {@code abandoned}
     * every 100 ms), or {@link Slot#QUEUE_FULL} when {@code launch.queue} requests already wait.
     * {@code onQueued} is told once the request waits.
     */
    Slot enterLaunch(BooleanSupplier abandoned, Runnable onQueued) throws InterruptedException {
        // with a timeout (even 0) a fair semaphore does not let a newcomer pass the requests that wait
        if (launches.tryAcquire(0, TimeUnit.MILLISECONDS)) {
            return Slot.GRANTED;
        }
        if (waiting.incrementAndGet() > limits.launchQueue()) {
            waiting.decrementAndGet();
            return Slot.QUEUE_FULL;
        }
        try {
            onQueued.run();
            while (!launches.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                if (abandoned.getAsBoolean()) {
                    return Slot.ABANDONED;
                }
            }
            if (abandoned.getAsBoolean()) {
                launches.release();
                return Slot.ABANDONED;
            }
            return Slot.GRANTED;
        } finally {
            waiting.decrementAndGet();
        }
    }

    void releaseLaunch() {
        launches.release();
    }

    String queueRefusal() {
        return "aasm: the resident kernel is running its maximum of " + limits.maxLaunches()
                + " launches (aasm.resident.max.launches) and " + limits.launchQueue()
                + " more wait (aasm.resident.launch.queue); refused this one, nothing was launched; try again later";
    }

    /** Launches running now and run requests waiting, for the status line. */
    int running() {
        return limits.maxLaunches() - launches.availablePermits();
    }

    int waiting() {
        return waiting.get();
    }

    int open() {
        return limits.maxConnections() - connections.availablePermits();
    }
}
