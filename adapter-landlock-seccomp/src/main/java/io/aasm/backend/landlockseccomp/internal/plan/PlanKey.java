package io.aasm.backend.landlockseccomp.internal.plan;

import io.aasm.backend.landlockseccomp.internal.lower.Lowerer;
import io.aasm.backend.landlockseccomp.internal.lower.LoopbackPath;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.transport.TransportMediation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything outside the filesystem that decides one backend's plan for one call, and nothing a plan only copies.
 * What the backend's {@code plan} reads, by source:
 * <ul>
 * <li>the spec: the requirements, the transport decision, the working directory (the view makes it when no grant
 * covers it), the protected paths, and the environment's names after the credential statement reduced them (the
 * credential step lists them). Not read, so not in the key: the caller's identity, the credential posture, stdio,
 * {@code --verify}. Copied without a decision, so replaced on a hit ({@code LandlockSeccompPlan#forCall}): the
 * program, its arguments and the environment's values;</li>
 * <li>the measured capabilities: their generation (a new one after every re-probe);</li>
 * <li>the system property {@value LoopbackPath#PROPERTY}, read by every lowering;</li>
 * <li>fixed for the backend's life, so not in the key (the cache belongs to one backend): the host facts, the
 * seccomp compiler, the backend's own state folders, the canary folder, and the nsswitch.conf the name-resolution
 * step derives from the host's, read once per JVM by the lowering itself ({@code NameService}).</li>
 * </ul>
 * Every filesystem answer is validated apart ({@code PathFacts}).
 */
record PlanKey(long generation, List<ControlRequirement> requirements, TransportMediation transport,
               String workingDirectory, List<String> protectedPaths, List<String> environmentNames,
               Optional<String> loopback) {
    PlanKey {
        requirements = List.copyOf(requirements);
        Objects.requireNonNull(transport);
        Objects.requireNonNull(workingDirectory);
        protectedPaths = List.copyOf(protectedPaths);
        environmentNames = List.copyOf(environmentNames);
        Objects.requireNonNull(loopback);
    }

    static PlanKey of(ExecutionSpec spec, long generation) {
        return new PlanKey(generation, spec.requirements(), spec.transport(), spec.workingDirectory(),
                spec.protectedPaths(), List.copyOf(Lowerer.environment(spec, spec.requirements()).keySet()),
                Optional.ofNullable(System.getProperty(LoopbackPath.PROPERTY)));
    }
}
