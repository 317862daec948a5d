package io.aasm.ports.backend;

import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.plan.EnforcementPlan;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.report.DescriptorInventory;
import io.aasm.ports.report.ProcessAuthority;
import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * An enforcement backend. Registered as a service with {@link BackendId} (and optionally
 * {@link BackendRanking}); the kernel tracks backends dynamically. Every method may be called from
 * any thread. The kernel wraps each call: an exception becomes a named diagnostic, never a launch.
 */
@ConsumerType
public interface IsolationBackend {
    BackendIdentity identity();

    /**
     * Capabilities measured on this host. Must be cheap: read from a per-host cache; when nothing is
     * cached yet the backend may probe once. Never claims prevention without an observed denial.
     */
    BackendCapabilities capabilities();

    /** Re-runs the probes and replaces the cache ({@code aasm probe --refresh}). */
    BackendCapabilities refreshCapabilities();

    /**
     * Capabilities narrowed for one launch: a domain whose stated scope this backend cannot express
     * must be reported unsupported here, with the reason.
     */
    default BackendCapabilities capabilitiesFor(ExecutionSpec spec) {
        return capabilities();
    }

    /** Human-readable steps that would install the requirement (rendered, never parsed). */
    default List<String> lower(ControlRequirement requirement) {
        return List.of();
    }

    /**
     * Prepares a negotiated plan: opens every path, builds every rule. Anything that cannot be
     * installed exactly as planned is a {@link LaunchException}; nothing runs.
     */
    PreparedExecution prepare(EnforcementPlan plan) throws LaunchException;

    /** Starts the program inside the boundary. */
    ExecutionHandle spawn(PreparedExecution prepared) throws LaunchException;

    /** Blocks until the program ends and the whole tree is torn down; idempotent. */
    ExitDisposition waitFor(ExecutionHandle handle) throws InterruptedException;

    /** Best effort; true when the request was delivered. */
    boolean terminate(ExecutionHandle handle, TerminationRequest request);

    /**
     * Delivers a signal the caller received that is not a request to end (e.g. SIGWINCH: the caller's
     * terminal changed size) to the confined tree as the backend sees fit. Best effort; true when delivered.
     */
    default boolean signal(ExecutionHandle handle, int signal) {
        return false;
    }

    /** What the backend can show about the launch (setup records before exit, runtime after). */
    EnforcementEvidence evidence(ExecutionHandle handle);

    /**
     * The descriptor sealing the backend guarantees for a plan before anything runs (for example
     * "only stdio is kept; every other inherited descriptor is closed before exec"). Empty means the
     * backend takes no inventory, so the launch cannot be called least-authority.
     */
    default Optional<DescriptorInventory> plannedDescriptors(EnforcementPlan plan) {
        return Optional.empty();
    }

    /** The descriptor inventory actually taken at launch; empty when none was taken. */
    default Optional<DescriptorInventory> descriptorInventory(ExecutionHandle handle) {
        return Optional.empty();
    }

    /**
     * The privileges the backend guarantees the program will hold for a plan (every capability set empty,
     * no_new_privs) before anything runs. Empty means no guarantee: the launch cannot be least-authority.
     */
    default Optional<ProcessAuthority> plannedAuthority(EnforcementPlan plan) {
        return Optional.empty();
    }

    /** The privileges measured on the program itself after its execve; empty when not measured. */
    default Optional<ProcessAuthority> authority(ExecutionHandle handle) {
        return Optional.empty();
    }
}
