package io.aasm.audit.internal;

import io.aasm.ports.audit.LaunchAudit;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.RequestedControl;
import io.aasm.ports.report.RunOutcome;
import io.aasm.ports.report.TargetSummary;
import io.aasm.ports.report.UnmeasuredReason;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** A small post-run report and launch to append (tests only). */
final class Reports {
    private Reports() {
    }

    static LaunchAudit launch(int status) {
        List<DomainProjection> rows = Arrays.stream(CapabilityDomain.values()).map(d -> new DomainProjection(d,
                new RequestedControl.NotDerived(), new ControlState.Unmeasured(UnmeasuredReason.NO_CONTROL_REQUESTED, ""),
                ClaimTerm.UNMEASURED, EvidenceBasis.NONE, "", List.of(), List.of())).toList();
        IsolationReport r = new IsolationReport(IsolationReport.SCHEMA, ReportStage.POST_RUN,
                ReportedPosture.NO_BOUNDARY, Optional.empty(), IsolationClass.NONE,
                new IdentityRef("agent-7", Optional.of("team-a"), List.of("parent")), new TargetSummary("/bin/true", 2),
                Optional.empty(), Optional.empty(), Optional.empty(), "/p/policy.yaml", List.of(), rows, List.of(),
                List.of(), CredentialPosture.none(), Optional.empty(), Optional.empty(),
                Optional.of(new RunOutcome("exited", status, "exit status " + status)), Optional.empty());
        Instant now = Instant.now();
        return new LaunchAudit(UUID.randomUUID().toString(), now, now, "ab".repeat(32), Optional.of("cd".repeat(32)), r);
    }
}
