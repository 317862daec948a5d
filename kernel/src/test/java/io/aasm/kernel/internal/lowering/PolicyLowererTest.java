package io.aasm.kernel.internal.lowering;

import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DomainCoverage;
import io.aasm.ports.policy.DomainLowering;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PolicyLowererTest {

    private final PolicyLowerer lowerer = new PolicyLowerer();

    @Test
    void emptyPolicyGivesNineNotStatedRowsInDomainOrderAndNoRequirement() {
        PolicyLowering l = lowerer.lower(Policy.empty("<none>"));
        assertEquals(9, l.domains().size());
        assertTrue(l.requirements().isEmpty());
        for (CapabilityDomain d : CapabilityDomain.values()) {
            DomainLowering dl = l.domains().get(d.ordinal());
            assertEquals(d, dl.domain());
            DomainCoverage.NotStated ns = assertInstanceOf(DomainCoverage.NotStated.class, dl.coverage());
            assertFalse(ns.schemaDefault().isBlank());
            assertFalse(dl.residualGaps().isEmpty(), "every domain names what the schema still cannot say");
        }
        assertEquals("filesystem.read.allow",
                ((DomainCoverage.NotStated) l.domains().get(0).coverage()).node());
        DomainCoverage.NotStated cred = (DomainCoverage.NotStated) l.domains()
                .get(CapabilityDomain.CREDENTIAL.ordinal()).coverage();
        assertEquals("credentials.delegate", cred.node());
        assertEquals("environment starts empty; nothing delegated", cred.schemaDefault());
    }

    @Test
    void statedDomainsBecomeRequirementsCarryingTheStatement() {
        Policy p = policy(Optional.of(IsolationClass.AUTO),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp/work")), RequirementPosture.DEGRADE),
                stmt(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("ptrace"))));
        PolicyLowering l = lowerer.lower(p);
        assertEquals(Optional.of(IsolationClass.AUTO), l.isolation());
        assertEquals(2, l.requirements().size());
        ControlRequirement w = l.requirements().get(0);
        assertEquals(CapabilityDomain.FILESYSTEM_WRITE, w.domain());
        assertEquals(RequirementPosture.DEGRADE, w.posture());
        assertEquals(new Scope.Paths(List.of("/tmp/work")), w.scope());
        DomainCoverage.Lowered sys = assertInstanceOf(DomainCoverage.Lowered.class,
                l.domains().get(CapabilityDomain.SYSCALL.ordinal()).coverage());
        assertEquals("syscalls.deny at test.policy:3:5", sys.sourcedFrom());
        assertInstanceOf(DomainCoverage.NotStated.class, l.domains().get(0).coverage());
    }

    @Test
    void domainNodeTableFollowsDomainOrder() {
        for (CapabilityDomain d : CapabilityDomain.values()) {
            assertEquals(d, DomainNodes.of(d).domain());
        }
    }
}
