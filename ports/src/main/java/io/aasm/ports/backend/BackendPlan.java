package io.aasm.ports.backend;

import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * What a backend made of one {@link ExecutionSpec} ({@link IsolationBackend#plan}): the kernel reads the
 * capabilities and steps to negotiate and report; the backend gets the same object back in
 * {@link IsolationBackend#prepare} and may keep its own lowering in it.
 */
@ConsumerType
public interface BackendPlan {
    /** Capabilities narrowed to this launch's scopes. */
    BackendCapabilities capabilities();

    /** Human-readable steps that would install the requirement (rendered, never parsed). */
    List<String> steps(ControlRequirement requirement);

    /**
     * The descriptor sealing the backend guarantees for this launch before anything runs (for example
     * "only stdio is kept"). Empty means none is guaranteed: the launch cannot be least-authority.
     */
    default Optional<DescriptorInventory> plannedDescriptors() {
        return Optional.empty();
    }

    /**
     * The privileges the program will hold (every capability set empty, no_new_privs). Empty means no
     * guarantee: the launch cannot be least-authority.
     */
    default Optional<ProcessAuthority> plannedAuthority() {
        return Optional.empty();
    }

    /**
     * Whether this plan carries the launch's transport mediation ({@link ExecutionSpec#transport()} is
     * {@code MEDIATED}): inside the boundary, {@code 127.0.0.1:boundaryPort} (and {@code [::1]:boundaryPort} where
     * the boundary has IPv6) leads to the relay endpoint of the session the kernel passes to {@code prepare}
     * ({@code EnforcementPlan#mediation}), each connection starting with its preamble; the program gets the
     * session's environment; and nothing else leaves the boundary but the loopback ports the backend relays for
     * loopback grants. False (the default) means it cannot: the kernel does not select it for a mediated launch.
     */
    default boolean relaysTransport() {
        return false;
    }
}
