package io.aasm.backend.vm.internal.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.TransportMediation;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A host where no guest can run (for example an accelerator that is not usable) must plan a launch as
 * "unavailable, because …", never crash: planning used the two-argument narrowing, which the unavailable
 * state did not override, and the general form's empty reports made the EnumMap copy throw.
 */
class UnavailablePlanningTest {
    @Test
    void aLaunchPlannedWhereNoGuestRunsIsUnavailableWithTheReason() {
        ProbeState state = new ProbeState("aasm-qemu-vm", "test", null, null, null);
        List<ControlRequirement> stated = List.of(ControlRequirement.strict(CapabilityDomain.PROCESS_CREATION,
                new Scope.ProcessCeiling(8)));
        BackendCapabilities caps = state.measured(false, () -> Optional.of("kvm is not usable here"))
                .narrowed(stated, TransportMediation.notRequested());
        Availability.Unavailable u = assertInstanceOf(Availability.Unavailable.class, caps.availability());
        assertTrue(u.reason().contains("kvm is not usable here"), u.reason());
        assertTrue(caps.reports().isEmpty(), "no domain is reported for a backend that cannot run: " + caps.reports());
    }

    @Test
    void theOneArgumentFormAgrees() {
        ProbeState state = new ProbeState("aasm-qemu-vm", "test", null, null, null);
        BackendCapabilities caps = state.measured(false, () -> Optional.of("no guest image")).narrowed(List.of());
        assertEquals(Availability.Unavailable.class, caps.availability().getClass());
    }
}
