package io.aasm.conformance.internal.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.RequestedControl;
import io.aasm.ports.report.TargetSummary;
import io.aasm.ports.report.UnmeasuredReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The post-run report is held to the capability sets and no_new_privs the program itself recorded. */
class LeastAuthorityTest {
    static final String CLEAN = "CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n"
            + "CapBnd:\t0000000000000000\nCapAmb:\t0000000000000000\nNoNewPrivs:\t1\n";
    static final String ROOT = CLEAN.replace("CapEff:\t0000000000000000", "CapEff:\t000001ffffffffff")
            .replace("NoNewPrivs:\t1", "NoNewPrivs:\t0");

    static IsolationReport post(Optional<ProcessAuthority> authority) {
        List<DomainProjection> rows = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            rows.add(new DomainProjection(d, new RequestedControl.Stated(ControlRequirement.strict(d,
                    new Scope.WholeDomain())), new ControlState.Unmeasured(UnmeasuredReason.values()[0], "-"),
                    ClaimTerm.UNMEASURED, EvidenceBasis.NONE, "m", List.of(), List.of()));
        }
        return new IsolationReport(IsolationReport.SCHEMA, ReportStage.POST_RUN, ReportedPosture.READY, Optional.empty(),
                IsolationClass.AUTO, IdentityRef.anonymous(), new TargetSummary("/bin/sh", 2), Optional.empty(),
                Optional.empty(), Optional.empty(), "p.yaml", List.of(), rows, List.of(), List.of(),
                CredentialPosture.none(), Optional.of(new DescriptorInventory(true, List.of(0, 1, 2), List.of(), List.of())),
                authority, Optional.empty(), Optional.empty());
    }

    static ProcessAuthority measuredClean() {
        String z = "0000000000000000";
        return new ProcessAuthority(true, z, z, z, z, z, true, "2", "read from the program after execve");
    }

    @Test
    void aCleanProgramUnderACleanReportIsNoContradiction() {
        Map<String, String> program = LeastAuthority.fields(CLEAN);
        assertTrue(LeastAuthority.clean(program));
        assertEquals(List.of(), LeastAuthority.contradictions(post(Optional.of(measuredClean())), program));
    }

    @Test
    void leastAuthorityClaimedOverAProgramHoldingCapabilitiesIsAContradiction() {
        IsolationReport report = post(Optional.of(measuredClean()));
        assertTrue(report.leastAuthority());
        List<String> lies = LeastAuthority.contradictions(report, LeastAuthority.fields(ROOT));
        assertTrue(lies.stream().anyMatch(l -> l.startsWith("post_run: least_authority yes")), lies.toString());
        assertTrue(lies.stream().anyMatch(l -> l.contains("CapEff empty")), lies.toString());
        assertTrue(lies.stream().anyMatch(l -> l.contains("NoNewPrivs 0")), lies.toString());
    }

    @Test
    void aReportThatClaimsNothingCannotContradictTheProgram() {
        assertEquals(List.of(), LeastAuthority.contradictions(post(Optional.empty()), LeastAuthority.fields(ROOT)));
        assertEquals(List.of(), LeastAuthority.contradictions(post(Optional.of(measuredClean())), Map.of()));
    }
}
