package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import java.util.Map;

/** A launch whose program runs in its guest: the VM, the session with its agent, and what the agent reported. */
record Started(VmLaunch launch, Machine machine, GuestSession session, Map<String, String> fields, long startNanos,
               long restoreMillis, long answerMillis, java.util.Optional<io.aasm.backend.vm.internal.guest.CanaryPlan> canaries) {
}
