package io.aasm.kernel.internal.lowering;

import static io.aasm.kernel.internal.testing.Policies.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CredentialPlanTest {

    private static final Map<String, String> CALLER = Map.of("PATH", "/usr/bin", "HOME", "/home/u",
            "GITHUB_TOKEN", "ghp-secret-value", "AWS_SECRET_ACCESS_KEY", "aws-secret-value", "LANG", "C");

    private static ControlRequirement delegate(String... names) {
        return new ControlRequirement(CapabilityDomain.CREDENTIAL, RequirementIntent.PREVENT_BEFORE_EFFECT,
                RequirementPosture.REQUIRED, DescendantRequirement.PROCESS_TREE, new Scope.Delegated(List.of(names)));
    }

    @Test
    void confinedChildGetsOnlyDelegatedNames() {
        CredentialPlan plan = CredentialPlan.confined(CALLER, List.of(delegate("PATH", "LANG", "NOT_SET")));
        assertEquals(Map.of("PATH", "/usr/bin", "LANG", "C"), plan.environment());
        assertEquals(Set.of("PATH", "LANG"), plan.posture().delegated());
        assertEquals(Set.of("HOME", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY"), plan.posture().removed());
        assertTrue(plan.posture().ambientUnremoved().isEmpty());
        assertTrue(plan.posture().contradictions().isEmpty());
    }

    @Test
    void credentialDomainNotStatedDelegatesNothing() {
        CredentialPlan plan = CredentialPlan.confined(CALLER, List.of(req(CapabilityDomain.FILESYSTEM_READ)));
        assertTrue(plan.environment().isEmpty());
        assertEquals(CALLER.keySet(), plan.posture().removed());
    }

    @Test
    void emptyDelegationListDelegatesNothing() {
        CredentialPlan plan = CredentialPlan.confined(CALLER, List.of(req(CapabilityDomain.CREDENTIAL)));
        assertTrue(plan.environment().isEmpty());
    }

    @Test
    void unconfinedChildKeepsEverythingAndCredentialLookingNamesAreAmbient() {
        CredentialPlan plan = CredentialPlan.unconfined(CALLER);
        assertEquals(CALLER, plan.environment());
        assertTrue(plan.posture().removed().isEmpty());
        assertEquals(Set.of("GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY"), plan.posture().ambientUnremoved());
    }

    @Test
    void postureAndPlanNeverCarryValues() {
        CredentialPlan plan = CredentialPlan.unconfined(CALLER);
        String shown = plan.toString() + plan.posture();
        assertFalse(shown.contains("secret-value"), shown);
    }
}
