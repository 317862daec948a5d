package io.aasm.kernel.internal.testing;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyStatement;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SourceLocation;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Policy, requirement and spec fixtures. */
public final class Policies {

    private Policies() {
    }

    public static PolicyStatement stmt(CapabilityDomain d, Scope scope, RequirementPosture posture) {
        return new PolicyStatement(d, scope, RequirementIntent.PREVENT_BEFORE_EFFECT, posture,
                DescendantRequirement.PROCESS_TREE, new SourceLocation("test.policy", 3, 5));
    }

    public static PolicyStatement stmt(CapabilityDomain d, Scope scope) {
        return stmt(d, scope, RequirementPosture.REQUIRED);
    }

    public static Policy policy(Optional<IsolationClass> isolation, PolicyStatement... statements) {
        Map<CapabilityDomain, PolicyStatement> m = new EnumMap<>(CapabilityDomain.class);
        for (PolicyStatement s : statements) {
            m.put(s.domain(), s);
        }
        return new Policy("test.policy", isolation, m, List.of());
    }

    public static ControlRequirement req(CapabilityDomain d, RequirementPosture posture) {
        return new ControlRequirement(d, RequirementIntent.PREVENT_BEFORE_EFFECT, posture,
                DescendantRequirement.PROCESS_TREE, new Scope.WholeDomain());
    }

    public static ControlRequirement req(CapabilityDomain d) {
        return req(d, RequirementPosture.REQUIRED);
    }

    public static ExecutionSpec spec(String program, List<ControlRequirement> requirements) {
        return new ExecutionSpec(program, List.of("a1"), "/", IdentityRef.anonymous(), requirements, Map.of(),
                CredentialPosture.none(), new Stdio.Inherit());
    }

    public static ExecutionSpec spec(ControlRequirement... requirements) {
        return spec("/bin/true", List.of(requirements));
    }
}
