package io.aasm.ports.policy;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.Objects;

/** What a policy states for one domain, and where it says it. */
public record PolicyStatement(
        CapabilityDomain domain,
        Scope scope,
        RequirementIntent intent,
        RequirementPosture posture,
        DescendantRequirement descendants,
        SourceLocation where) {

    public PolicyStatement {
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(intent, "intent");
        Objects.requireNonNull(posture, "posture");
        Objects.requireNonNull(descendants, "descendants");
        Objects.requireNonNull(where, "where");
    }
}
