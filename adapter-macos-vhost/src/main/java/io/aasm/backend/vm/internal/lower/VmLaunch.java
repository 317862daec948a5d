package io.aasm.backend.vm.internal.lower;

import io.aasm.backend.vm.internal.guest.CanaryTargets;
import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.ports.capability.CapabilityDomain;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One launch lowered for the VM: the plan the agent installs, the host folder behind each share slot, the
 * wall clock the host enforces, per stated domain the steps that install it (what reports show), and the
 * guest's proxy port when its egress grants go through the launch's mediation session, and what its canaries
 * aim at (kept apart from the plan: a plan changed on purpose still meets the canaries of what was claimed).
 */
public record VmLaunch(GuestPlan plan, List<ShareSlot> slots, OptionalLong wallClockSeconds,
                       Map<CapabilityDomain, List<String>> installed, OptionalInt proxyPort,
                       CanaryTargets canaryTargets) {
    /** A share slot: which device, the host folder behind it, and whether the host refuses writes to it. */
    public record ShareSlot(int slot, String hostPath, boolean readOnly) {
    }

    public VmLaunch(GuestPlan plan, List<ShareSlot> slots, OptionalLong wallClockSeconds,
                    Map<CapabilityDomain, List<String>> installed) {
        this(plan, slots, wallClockSeconds, installed, OptionalInt.empty(), CanaryTargets.NONE);
    }

    /** This launch with its canaries aimed at {@code t} (tests: a target the guest can reach). */
    public VmLaunch withTargets(CanaryTargets t) {
        return new VmLaunch(plan, slots, wallClockSeconds, installed, proxyPort, t);
    }

    /** This launch with {@code plan} in place of its own, everything else (the canaries' targets too) kept. */
    public VmLaunch withPlan(GuestPlan p) {
        return new VmLaunch(p, slots, wallClockSeconds, installed, proxyPort, canaryTargets);
    }

    public VmLaunch {
        java.util.Objects.requireNonNull(proxyPort);
        java.util.Objects.requireNonNull(canaryTargets);
        slots = List.copyOf(slots);
        EnumMap<CapabilityDomain, List<String>> copy = new EnumMap<>(CapabilityDomain.class);
        installed.forEach((d, s) -> copy.put(d, List.copyOf(s)));
        installed = Collections.unmodifiableMap(copy);
    }
}
