package io.aasm.ports.policy;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.Objects;

/** One requirement lowered from policy for one domain. */
public record ControlRequirement(
        CapabilityDomain domain,
        RequirementIntent intent,
        RequirementPosture posture,
        DescendantRequirement descendants,
        Scope scope) {

    public ControlRequirement {
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(intent, "intent");
        Objects.requireNonNull(posture, "posture");
        Objects.requireNonNull(descendants, "descendants");
        Objects.requireNonNull(scope, "scope");
    }

    /** The strict default: prevent before effect, required, whole process tree. */
    public static ControlRequirement strict(CapabilityDomain domain, Scope scope) {
        return new ControlRequirement(domain, RequirementIntent.PREVENT_BEFORE_EFFECT, RequirementPosture.REQUIRED,
                DescendantRequirement.PROCESS_TREE, scope);
    }
}
