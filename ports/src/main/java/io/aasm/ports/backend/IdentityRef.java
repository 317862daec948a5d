package io.aasm.ports.backend;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Who asked for the launch. Asserted by the caller, not verified. */
public record IdentityRef(String agentId, Optional<String> teamId, List<String> lineage) {
    public IdentityRef {
        Objects.requireNonNull(agentId);
        Objects.requireNonNull(teamId);
        lineage = List.copyOf(lineage);
    }

    public static IdentityRef anonymous() {
        return new IdentityRef("anonymous", Optional.empty(), List.of());
    }
}
