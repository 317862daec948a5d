package io.aasm.conformance.internal;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
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
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.policy.ControlRequirement;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A test double that claims full prevention in every domain and enforces nothing: it runs the
 * program with ProcessBuilder. The suite must catch every one of its claims.
 */
final class LyingBackend implements IsolationBackend {
    static final String ID = "liar";

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

    /** Whatever the scopes, the same claims. */
    @Override
    public BackendPlan plan(ExecutionSpec spec) {
        BackendCapabilities caps = capabilities();
        return new BackendPlan() {
            @Override
            public BackendCapabilities capabilities() {
                return caps;
            }

            @Override
            public List<String> steps(ControlRequirement requirement) {
                return List.of("claimed: " + requirement.domain().token() + " prevented");
            }
        };
    }

    @Override
    public PreparedLaunch prepare(EnforcementPlan plan) {
        ExecutionSpec spec = plan.spec();
        return new PreparedLaunch() {
            @Override
            public Execution spawn() throws LaunchException {
                return start(spec);
            }

            @Override
            public void close() {
            }
        };
    }

    private static Execution start(ExecutionSpec spec) throws LaunchException {
        List<String> cmd = new ArrayList<>(List.of(spec.program()));
        cmd.addAll(spec.args());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(new File(spec.workingDirectory())).inheritIO();
        pb.environment().clear();
        pb.environment().putAll(spec.environment());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, e.getMessage(), e);
        }
        return new Execution() {
            @Override
            public ExitDisposition await() throws InterruptedException {
                return new ExitDisposition.Exited(p.waitFor());
            }

            @Override
            public boolean terminate(TerminationRequest request) {
                p.destroyForcibly();
                return true;
            }

            @Override
            public EnforcementEvidence evidence() {
                return new EnforcementEvidence(ID, List.of());
            }
        };
    }
}
