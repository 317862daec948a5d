package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.evidence.DescriptorInventory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The descriptor inventory of a sandlock launch. aasm starts the guard and knows what it hands over:
 * stdio, plus sandlock's status descriptor 3, which sandlock closes before it runs the program — an
 * observation of the {@code descriptor_seal} probe. Without that observation the status descriptor is
 * a residual, so the inventory is not clean and the launch cannot be least-authority.
 */
final class Descriptors {
    private Descriptors() {
    }

    /** What every launch hands over, before anything runs. */
    static DescriptorInventory planned(Optional<ProbeResults> probes) {
        return new DescriptorInventory(true, List.of(0, 1, 2), List.of(), statusResidual(probes));
    }

    /** The guard's inventory of what it inherited and sealed, plus the status descriptor's verdict. */
    static DescriptorInventory taken(DescriptorInventory guard, Optional<ProbeResults> probes) {
        List<String> residual = new ArrayList<>(guard.residual());
        residual.addAll(statusResidual(probes));
        return new DescriptorInventory(guard.complete(), guard.kept(), guard.sealed(), residual);
    }

    private static List<String> statusResidual(Optional<ProbeResults> probes) {
        PrerequisiteStatus seal = probes.map(p -> p.status(ProbeResults.DESCRIPTORS))
                .orElse(new PrerequisiteStatus.Unchecked("no probes"));
        return seal instanceof PrerequisiteStatus.Satisfied ? List.of()
                : List.of("3/sandlock status descriptor not observed closed before the program (" + seal.token() + ")");
    }
}
