package io.aasm.backend.example.internal;

import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.ExecutionHandle;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedExecution;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.evidence.EnforcementEvidence;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Component;

/**
 * An example backend bundle (the one used to show hot deploy): it really runs the program, with
 * ProcessBuilder and no boundary at all, and says so. Every domain is reported unsupported, so it
 * can never satisfy a requirement and the {@code auto} walk always passes over it with the reason.
 */
@Component(service = IsolationBackend.class)
@BackendId(ExampleUnconfinedBackend.ID)
public final class ExampleUnconfinedBackend implements IsolationBackend {
    static final String ID = "example-unconfined";
    static final String UNSUPPORTED = "the example-unconfined backend runs the program without any boundary;"
            + " nothing in this domain is mediated";

    private final Map<String, PreparedExecution> prepared = new ConcurrentHashMap<>();
    private final Map<String, Process> running = new ConcurrentHashMap<>();

    @Override
    public BackendIdentity identity() {
        return new BackendIdentity(ID, "0.1.0", new Provenance("aasm adapter-example-unconfined (this repository)",
                "Apache-2.0", false, Optional.empty(), ProvenanceStatus.FIRST_PARTY));
    }

    /** A declaration, not a measurement: nothing is probed, so there is no measurement time. */
    @Override
    public BackendCapabilities capabilities() {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            reports.put(d, CapabilityReport.unsupported(d, UNSUPPORTED));
        }
        return new BackendCapabilities(new Availability.Available(), PlatformBoundary.SHARED_HOST_KERNEL, reports,
                Optional.empty());
    }

    @Override
    public BackendCapabilities refreshCapabilities() {
        return capabilities();
    }

    @Override
    public PreparedExecution prepare(io.aasm.ports.plan.EnforcementPlan plan) throws LaunchException {
        if (!(plan.spec().stdio() instanceof Stdio.Inherit)) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR,
                    "the example-unconfined backend can only hand the caller's own stdio to the program");
        }
        PreparedExecution p = new PreparedExecution(plan, UUID.randomUUID().toString());
        prepared.put(p.token(), p);
        return p;
    }

    @Override
    public ExecutionHandle spawn(PreparedExecution p) throws LaunchException {
        if (prepared.remove(p.token()) == null) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "unknown or already used preparation " + p.token());
        }
        ExecutionSpec spec = p.plan().spec();
        List<String> command = new ArrayList<>();
        command.add(spec.program());
        command.addAll(spec.args());
        ProcessBuilder pb = new ProcessBuilder(command).directory(new java.io.File(spec.workingDirectory())).inheritIO();
        pb.environment().clear();
        pb.environment().putAll(spec.environment());
        try {
            running.put(p.token(), pb.start());
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "could not start " + spec.program() + ": "
                    + e.getMessage(), e);
        }
        return new ExecutionHandle(ID, p.token());
    }

    /**
     * Java reports a death by signal N as 128+N, indistinguishable from a program that exits 128+N
     * itself; both are the same shell status, so the status is passed on as an exit code.
     */
    @Override
    public ExitDisposition waitFor(ExecutionHandle handle) throws InterruptedException {
        Process p = process(handle);
        int code = p.waitFor();
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        return new ExitDisposition.Exited(code);
    }

    @Override
    public boolean terminate(ExecutionHandle handle, TerminationRequest request) {
        Process p = running.get(handle.token());
        if (p == null || !p.isAlive()) {
            return false;
        }
        if (request == TerminationRequest.IMMEDIATE) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            return true;
        }
        return p.toHandle().destroy();
    }

    @Override
    public EnforcementEvidence evidence(ExecutionHandle handle) {
        return new EnforcementEvidence(ID, List.of());
    }

    private Process process(ExecutionHandle handle) {
        Process p = running.get(handle.token());
        if (p == null) {
            throw new IllegalArgumentException("unknown execution handle " + handle.token());
        }
        return p;
    }
}
