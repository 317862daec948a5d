package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.lower.VmLaunch;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * One way of running a guest (QEMU here, Virtualization.framework through its helper on macOS): everything
 * above it (lowering, the protocol, probes, evidence) is the same for both.
 */
public interface Hypervisor {
    /** Why no guest can run here, when none can. Cheap: no VM is started to answer. */
    Optional<String> unavailable();

    /** What the guest is known to offer (from its template's hello, or the image), for routes and evidence. */
    GuestFacts facts() throws IOException;

    /** A running guest for one launch, its shares behind the given slots, its agent waiting for the plan. */
    Machine start(List<VmLaunch.ShareSlot> slots) throws IOException;

    /** One line for evidence and reports: hypervisor, version, accelerator, size, how a launch starts. */
    String describe();

    /**
     * The hypervisor's part of the probe cache key (binary and guest image digests, VM shape, accelerator mode):
     * anything whose change could change what the probes observe. Cheap: no VM is started to answer; asked only
     * when {@link #unavailable()} is empty.
     */
    java.util.Map<String, String> probeKey();

    /** The provenance digest of what this driver runs (the guest agent and image). */
    Optional<String> sha256();
}
