package io.aasm.kernel.internal.report;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.report.TargetSummary;
import java.util.Objects;
import java.util.Optional;

/** What every report of one launch shares, whatever the decision. {@code lowering} is empty when none was derived. */
public record ReportContext(IsolationClass isolation, IdentityRef identity, TargetSummary target, String policyOrigin,
                            Optional<PolicyLowering> lowering, CredentialPosture credentials) {
    public ReportContext {
        Objects.requireNonNull(isolation);
        Objects.requireNonNull(identity);
        Objects.requireNonNull(target);
        Objects.requireNonNull(policyOrigin);
        Objects.requireNonNull(lowering);
        Objects.requireNonNull(credentials);
    }
}
