package io.aasm.conformance.internal.run;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.RequestedControl;
import io.aasm.ports.report.TargetSummary;
import io.aasm.ports.report.UnmeasuredReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Hand-built reports: every domain stated, IPC in the given state, for the judge and truth tests. */
final class Reports {
    private Reports() {
    }

    static ControlState prevention() {
        return new ControlState.Prevention(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE);
    }

    static ControlState unmeasured() {
        return new ControlState.Unmeasured(UnmeasuredReason.values()[0], "not measured");
    }

    static IsolationReport report(ReportStage stage, Optional<String> backend, ReportedPosture posture,
                                  ControlState ipc, ClaimTerm ipcClaim) {
        List<DomainProjection> rows = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            boolean target = d == CapabilityDomain.IPC;
            rows.add(new DomainProjection(d, new RequestedControl.Stated(
                    io.aasm.ports.policy.ControlRequirement.strict(d, new io.aasm.ports.policy.Scope.WholeDomain())),
                    target ? ipc : unmeasured(), target ? ipcClaim : ClaimTerm.UNMEASURED, EvidenceBasis.NONE, "m",
                    List.of(), List.of()));
        }
        return new IsolationReport(IsolationReport.SCHEMA, stage, posture, Optional.empty(), IsolationClass.AUTO,
                IdentityRef.anonymous(), new TargetSummary("/bin/sh", 2),
                backend.map(id -> new BackendIdentity(id, "1", new Provenance("test", "Apache-2.0", false,
                        Optional.empty(), ProvenanceStatus.FIRST_PARTY))), Optional.empty(), Optional.empty(), "p.yaml",
                List.of(), rows, List.of(), List.of(), CredentialPosture.none(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    static IsolationReport confined(ReportStage stage, ControlState ipc) {
        return report(stage, Optional.of("x"), ReportedPosture.READY, ipc, ClaimTerm.UNMEASURED);
    }
}
