package io.aasm.backend.container.internal;

import io.aasm.backend.container.internal.engine.EngineSocket;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.LaunchPosture;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Drives the real backend on the real engine (plan, prepare, spawn, await) with a plan whose every
 * requirement is enforced, as negotiation would hand it over. The actor is always a grandchild of the
 * launched shell. Without an engine on this host every test using it is "environment cannot host this check".
 */
public final class Harness {
    public static final List<String> SYSTEM = List.of("/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc").stream()
            .filter(p -> Files.exists(Path.of(p))).toList();

    private static ContainerBackend shared;

    public final ContainerBackend backend;

    Harness(ContainerBackend backend) {
        this.backend = backend;
    }

    /** One backend per test JVM; skipped (never passed) where no engine runs. */
    public static synchronized Harness shared() {
        requireEngine();
        if (shared == null) {
            shared = new ContainerBackend(Settings.defaults().withProbeCacheDir(cacheDir()));
        }
        return new Harness(shared);
    }

    public static void requireEngine() {
        EngineSocket.Located where = EngineSocket.locate(Optional.empty(), System.getenv());
        Assumptions.assumeTrue(where instanceof EngineSocket.Located.Found, () -> "environment cannot host this check: "
                + ((EngineSocket.Located.Missing) where).reason() + " (.ci/run starts one and sets DOCKER_HOST)");
    }

    public static Path cacheDir() {
        try {
            return Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "aasm-container-test-probes"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ControlRequirement req(CapabilityDomain d, Scope s) {
        return ControlRequirement.strict(d, s);
    }

    public static ControlRequirement read(String... paths) {
        List<String> all = new ArrayList<>(SYSTEM);
        all.addAll(List.of(paths));
        return req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(all));
    }

    public static ControlRequirement write(String... paths) {
        return req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(paths)));
    }

    /** {@code sh -c '<shell> -c "action; :"; :'}: the action runs in a grandchild. */
    public static ExecutionSpec grandchild(String shell, String action, Path cwd, Map<String, String> env,
                                           List<ControlRequirement> reqs) {
        return spec(shell, action, cwd, env, reqs, new Stdio.Inherit());
    }

    public static ExecutionSpec spec(String shell, String action, Path cwd, Map<String, String> env,
                                     List<ControlRequirement> reqs, Stdio stdio) {
        if (action.contains("'")) {
            throw new IllegalArgumentException("no single quotes in actions");
        }
        return new ExecutionSpec("/bin/sh", List.of("-c", shell + " -c '" + action + "; :'; :"), cwd.toString(),
                IdentityRef.anonymous(), reqs, env, CredentialPosture.none(), stdio);
    }

    public static EnforcementPlan plan(ContainerBackend b, ExecutionSpec spec) {
        BackendPlan lowered = b.plan(spec);
        List<PlannedRequirement> planned = spec.requirements().stream().map(r -> new PlannedRequirement(r,
                new RequirementOutcome.Enforced(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE),
                lowered.steps(r))).toList();
        return new EnforcementPlan(b.identity(), spec, planned, LaunchPosture.READY, lowered);
    }

    public ExitDisposition run(ExecutionSpec spec) throws LaunchException {
        try {
            return start(spec).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the launch ran", e);
        }
    }

    public ExitDisposition sh(String action, Path cwd, ControlRequirement... reqs) throws LaunchException {
        return run(grandchild("/bin/sh", action, cwd, Map.of("PATH", "/usr/bin:/bin"), List.of(reqs)));
    }

    public Execution start(ExecutionSpec spec) throws LaunchException {
        try (var prepared = backend.prepare(plan(backend, spec))) {
            return prepared.spawn();
        }
    }
}
