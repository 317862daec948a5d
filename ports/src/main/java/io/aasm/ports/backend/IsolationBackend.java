package io.aasm.ports.backend;

import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.backend.EnforcementPlan;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * An enforcement backend. Registered as a service with {@link BackendId} (and optionally
 * {@link BackendRanking}); the kernel tracks backends dynamically. Every method may be called from
 * any thread. The kernel wraps each call: an exception becomes a named diagnostic, never a launch.
 *
 * <p>One launch goes {@link #plan} (lower the spec once: what this backend can do for it, and the
 * steps it would install), negotiation by the kernel, {@link #prepare} (everything opened and built,
 * nothing run), {@link PreparedLaunch#spawn} (the program starts), then the {@link Execution}: its
 * end, termination, signals, evidence. The objects carry the launch; the backend keeps no table of
 * launches of its own.
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
     * Lowers one launch: the capabilities narrowed to its scopes (a domain whose stated scope this
     * backend cannot express is reported unsupported, with the reason) and the steps that would
     * install each requirement. The kernel hands the result back in the {@link EnforcementPlan} it
     * negotiates, so {@link #prepare} need not lower again.
     */
    BackendPlan plan(ExecutionSpec spec);

    /**
     * Prepares a negotiated plan ({@code plan.backendPlan()} is this backend's own {@link BackendPlan}):
     * opens every path, builds every rule, installs only the requirements negotiation enforces.
     * Anything that cannot be installed exactly as planned is a {@link LaunchException}; nothing runs.
     */
    PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException;
}
