package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.guest.FrameChannel;

/** One running guest: its control channel, and the kill that ends it and everything in it. */
public interface Machine extends AutoCloseable {
    FrameChannel channel();

    /** Milliseconds from the hypervisor's spawn to a running guest (restore or boot). */
    long startMillis();

    boolean alive();

    /** Ends the VM at once (the host-driven teardown); idempotent. */
    @Override
    void close();
}
