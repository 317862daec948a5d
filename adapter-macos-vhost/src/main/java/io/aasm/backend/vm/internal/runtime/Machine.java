package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.guest.FrameChannel;
import io.aasm.backend.vm.internal.guest.ShareTransport;

/** One running guest: its control channel, and the kill that ends it and everything in it. */
public interface Machine extends AutoCloseable {
    FrameChannel channel();

    /** Milliseconds from the hypervisor's spawn to a running guest (restore or boot). */
    long startMillis();

    /** How this guest's shares are carried; the plan names it per share so the agent mounts the right kind. */
    ShareTransport transport();

    boolean alive();

    /** Ends the VM at once (the host-driven teardown); idempotent. */
    @Override
    void close();
}
