package io.aasm.kernel.internal.report;

import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.RunOutcome;
import java.util.List;
import java.util.Optional;

/** Copy-with helpers for the report record (it has no withers of its own). */
final class Reports {

    private Reports() {
    }

    static IsolationReport withPosture(IsolationReport r, ReportedPosture posture, Optional<String> detail) {
        return new IsolationReport(r.schema(), r.stage(), posture, detail, r.isolationClass(), r.identity(),
                r.target(), r.backend(), r.backendUnavailable(), r.selection(), r.policyOrigin(), r.requested(),
                r.domains(), r.refusals(), r.unmapped(), r.credentials(), r.descriptors(), r.authority(), r.outcome(),
                r.evidence());
    }

    static IsolationReport withAuthority(IsolationReport r, Optional<DescriptorInventory> descriptors,
                                         Optional<ProcessAuthority> authority) {
        return new IsolationReport(r.schema(), r.stage(), r.posture(), r.postureDetail(), r.isolationClass(),
                r.identity(), r.target(), r.backend(), r.backendUnavailable(), r.selection(), r.policyOrigin(),
                r.requested(), r.domains(), r.refusals(), r.unmapped(), r.credentials(), descriptors, authority,
                r.outcome(), r.evidence());
    }

    static IsolationReport postRun(IsolationReport r, ReportedPosture posture, Optional<String> detail,
                                   List<DomainProjection> rows, RunOutcome outcome,
                                   Optional<EnforcementEvidence> evidence, Optional<DescriptorInventory> descriptors,
                                   Optional<ProcessAuthority> authority) {
        return new IsolationReport(r.schema(), ReportStage.POST_RUN, posture, detail, r.isolationClass(),
                r.identity(), r.target(), r.backend(), r.backendUnavailable(), r.selection(), r.policyOrigin(),
                r.requested(), rows, r.refusals(), r.unmapped(), r.credentials(), descriptors, authority,
                Optional.of(outcome), evidence);
    }
}
