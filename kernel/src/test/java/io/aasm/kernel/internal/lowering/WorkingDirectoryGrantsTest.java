package io.aasm.kernel.internal.lowering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.PolicyStatement;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SourceLocation;
import io.aasm.ports.policy.DescendantRequirement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkingDirectoryGrantsTest {
    private static PolicyLowering lowering(CapabilityDomain d, Scope s) {
        Map<CapabilityDomain, PolicyStatement> st = new EnumMap<>(CapabilityDomain.class);
        st.put(d, new PolicyStatement(d, s, RequirementIntent.PREVENT_BEFORE_EFFECT, RequirementPosture.REQUIRED,
                DescendantRequirement.PROCESS_TREE, new SourceLocation("p.yaml", 1, 1)));
        return new PolicyLowerer().lower(new Policy("p.yaml", Optional.empty(), st, List.of()));
    }

    private static Scope scopeOf(PolicyLowering l) {
        return l.requirements().stream().map(ControlRequirement::scope).findFirst().orElseThrow();
    }

    @Test
    void theWorkingDirectoryTakesThePlaceOfTheName() {
        PolicyLowering l = lowering(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of("$WORKDIR", "$WORKDIR/build", "/opt/x"), List.of("/tmp")));
        var ok = assertInstanceOf(WorkingDirectoryGrants.Bound.Ok.class,
                WorkingDirectoryGrants.bind(l, "/work/p", Map.of("HOME", "/home/u")));
        assertEquals(new Scope.Paths(List.of("/work/p", "/work/p/build", "/opt/x"), List.of("/tmp")), scopeOf(ok.lowering()));
        PolicyLowering plain = lowering(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/opt/x")));
        assertSame(plain, ((WorkingDirectoryGrants.Bound.Ok) WorkingDirectoryGrants.bind(plain, "/", Map.of())).lowering());
    }

    @Test
    void writingTheRootOrTheHomeByNameIsTooWide() {
        PolicyLowering l = lowering(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("$WORKDIR")));
        assertTrue(assertInstanceOf(WorkingDirectoryGrants.Bound.TooWide.class,
                WorkingDirectoryGrants.bind(l, "/", Map.of())).message().contains("whole filesystem"));
        assertTrue(assertInstanceOf(WorkingDirectoryGrants.Bound.TooWide.class,
                WorkingDirectoryGrants.bind(l, "/home/u", Map.of("HOME", "/home/u"))).message().contains("home"));
        assertInstanceOf(WorkingDirectoryGrants.Bound.TooWide.class,
                WorkingDirectoryGrants.bind(l, "/home", Map.of("HOME", "/home/u")));
        assertInstanceOf(WorkingDirectoryGrants.Bound.Ok.class,
                WorkingDirectoryGrants.bind(l, "/home/u/project", Map.of("HOME", "/home/u")));
        PolicyLowering read = lowering(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(List.of("$WORKDIR")));
        assertInstanceOf(WorkingDirectoryGrants.Bound.Ok.class, WorkingDirectoryGrants.bind(read, "/home/u",
                Map.of("HOME", "/home/u")), "reading the home by name is the policy's business");
    }
}
