package io.aasm.backend.example.internal;

import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.policy.ControlRequirement;
import java.util.List;

/** The example backend's answer for any launch: its declared capabilities, and no step for anything. */
record NothingInstalled(BackendCapabilities capabilities) implements BackendPlan {
    @Override
    public List<String> steps(ControlRequirement requirement) {
        return List.of();
    }
}
