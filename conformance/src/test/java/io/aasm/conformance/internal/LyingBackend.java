package io.aasm.conformance.internal;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.ExecutionHandle;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedExecution;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.FailurePosture;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.capability.Synchrony;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.plan.EnforcementPlan;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test double that claims full prevention in every domain and enforces nothing: it runs the
 * program with ProcessBuilder. The suite must catch every one of its claims.
 */
final class LyingBackend implements IsolationBackend {
    static final String ID = "liar";
    private final Map<String, EnforcementPlan> prepared = new ConcurrentHashMap<>();
    private final Map<String, Process> running = new ConcurrentHashMap<>();

    @Override
    public BackendIdentity identity() {
        return new BackendIdentity(ID, "0", new Provenance("test double", "Apache-2.0", false, Optional.empty(),
                ProvenanceStatus.FIRST_PARTY));
    }

    @Override
    public BackendCapabilities capabilities() {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            reports.put(d, new CapabilityReport(d, Mediation.ENFORCE, DecisionTiming.PRE, Synchrony.SYNC,
                    FailurePosture.FAIL_CLOSED, DescendantCoverage.PROCESS_TREE, new SupportLevel.Full(), List.of(),
                    "claims everything, enforces nothing"));
        }
        return new BackendCapabilities(new Availability.Available(), PlatformBoundary.SHARED_HOST_KERNEL, reports,
                Optional.empty());
    }

    @Override
    public BackendCapabilities refreshCapabilities() {
        return capabilities();
    }

    @Override
    public PreparedExecution prepare(EnforcementPlan plan) {
        String token = UUID.randomUUID().toString();
        prepared.put(token, plan);
        return new PreparedExecution(plan, token);
    }

    @Override
    public ExecutionHandle spawn(PreparedExecution p) throws LaunchException {
        var spec = prepared.remove(p.token()).spec();
        List<String> cmd = new ArrayList<>(List.of(spec.program()));
        cmd.addAll(spec.args());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(new File(spec.workingDirectory())).inheritIO();
        pb.environment().clear();
        pb.environment().putAll(spec.environment());
        try {
            String token = UUID.randomUUID().toString();
            running.put(token, pb.start());
            return new ExecutionHandle(ID, token);
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, e.getMessage(), e);
        }
    }

    @Override
    public ExitDisposition waitFor(ExecutionHandle handle) throws InterruptedException {
        return new ExitDisposition.Exited(running.get(handle.token()).waitFor());
    }

    @Override
    public boolean terminate(ExecutionHandle handle, TerminationRequest request) {
        running.get(handle.token()).destroyForcibly();
        return true;
    }

    @Override
    public EnforcementEvidence evidence(ExecutionHandle handle) {
        return new EnforcementEvidence(ID, List.of());
    }
}
