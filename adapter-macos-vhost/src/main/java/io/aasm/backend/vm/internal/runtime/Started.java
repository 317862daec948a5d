package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.egress.GuestEgress;
import io.aasm.backend.vm.internal.guest.CanaryPlan;
import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import java.util.Map;
import java.util.Optional;

/**
 * A launch whose program runs in its guest: the VM, the session with its agent, what the agent reported, and
 * the host side of its proxy port when the launch is mediated.
 */
record Started(VmLaunch launch, Machine machine, GuestSession session, Map<String, String> fields, long startNanos,
               long restoreMillis, long answerMillis, Optional<CanaryPlan> canaries, Optional<GuestEgress> egress) {

    /** Kills the VM (the teardown of the whole tree) and ends every proxy connection it had. */
    void kill() {
        machine.close();
        egress.ifPresent(GuestEgress::close);
    }
}
