package io.aasm.ports.report;

import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IsolationClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The isolation report of one launch (or preview). Always nine domain rows in
 * {@link CapabilityDomain} order. Built by the kernel, rendered by {@link ReportRenderer}s.
 */
public record IsolationReport(
        String schema,
        ReportStage stage,
        ReportedPosture posture,
        Optional<String> postureDetail,
        IsolationClass isolationClass,
        IdentityRef identity,
        TargetSummary target,
        Optional<BackendIdentity> backend,
        Optional<String> backendUnavailable,
        Optional<BackendSelection> selection,
        String policyOrigin,
        List<ControlRequirement> requested,
        List<DomainProjection> domains,
        List<RefusalEntry> refusals,
        List<String> unmapped,
        CredentialPosture credentials,
        Optional<DescriptorInventory> descriptors,
        Optional<ProcessAuthority> authority,
        Optional<RunOutcome> outcome,
        Optional<EnforcementEvidence> evidence) {

    public static final String SCHEMA = "aasm.isolation.report/1";

    public IsolationReport {
        Objects.requireNonNull(schema);
        Objects.requireNonNull(stage);
        Objects.requireNonNull(posture);
        Objects.requireNonNull(postureDetail);
        Objects.requireNonNull(isolationClass);
        Objects.requireNonNull(identity);
        Objects.requireNonNull(target);
        Objects.requireNonNull(backend);
        Objects.requireNonNull(backendUnavailable);
        Objects.requireNonNull(selection);
        Objects.requireNonNull(policyOrigin);
        requested = List.copyOf(requested);
        domains = List.copyOf(domains);
        refusals = List.copyOf(refusals);
        unmapped = List.copyOf(unmapped);
        Objects.requireNonNull(credentials);
        Objects.requireNonNull(descriptors);
        Objects.requireNonNull(authority);
        Objects.requireNonNull(outcome);
        Objects.requireNonNull(evidence);
        CapabilityDomain[] order = CapabilityDomain.values();
        if (domains.size() != order.length) {
            throw new IllegalArgumentException("a report has exactly nine domain rows, got " + domains.size());
        }
        for (int i = 0; i < order.length; i++) {
            if (domains.get(i).domain() != order[i]) {
                throw new IllegalArgumentException("domain rows out of order at " + i);
            }
        }
    }

    /**
     * Least authority holds when no ambient environment stayed, the descriptor inventory is clean, and the
     * program holds no capability and has no_new_privs (planned before launch, measured after).
     */
    public boolean leastAuthority() {
        return leastAuthorityGaps().isEmpty();
    }

    /** Why least authority does not hold, one sentence each (empty when it holds). */
    public List<String> leastAuthorityGaps() {
        List<String> gaps = new ArrayList<>();
        if (!credentials.ambientUnremoved().isEmpty()) {
            gaps.add(credentials.ambientUnremoved().size() + " ambient environment name(s) not removed");
        }
        if (!credentials.contradictions().isEmpty()) {
            gaps.add("contradictory credential accounting");
        }
        if (descriptors.isEmpty()) {
            gaps.add("no descriptor inventory taken");
        } else if (!descriptors.get().clean()) {
            gaps.add("descriptor inventory not clean");
        }
        if (authority.isEmpty()) {
            gaps.add("the program's capabilities were not established");
        } else {
            gaps.addAll(authority.get().gaps());
        }
        return gaps;
    }

    public DomainProjection row(CapabilityDomain domain) {
        return domains.get(domain.ordinal());
    }
}
