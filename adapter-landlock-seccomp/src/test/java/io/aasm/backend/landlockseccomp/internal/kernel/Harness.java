package io.aasm.backend.landlockseccomp.internal.kernel;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.BackendPlan;
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

/**
 * Drives the real backend (plan, prepare, spawn, await) with a plan whose every requirement is enforced,
 * as negotiation would hand it over. The actor is always a grandchild of the launched shell.
 */
public final class Harness {
    public static final List<String> SYSTEM = List.of("/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc").stream()
            .filter(p -> Files.exists(Path.of(p))).toList();

    private static LandlockSeccompBackend shared;

    public final LandlockSeccompBackend backend;

    public Harness(LandlockSeccompBackend backend) {
        this.backend = backend;
    }

    /** One backend per test JVM (host detection and launcher extraction happen once). */
    public static synchronized Harness shared() {
        if (shared == null) {
            shared = new LandlockSeccompBackend(LandlockSeccompSettings.defaults().withProbeCacheDir(cacheDir()));
        }
        return new Harness(shared);
    }

    public static Path cacheDir() {
        try {
            return Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "aasm-native-test-probes"));
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
        if (action.contains("'")) {
            throw new IllegalArgumentException("no single quotes in actions");
        }
        return new ExecutionSpec("/bin/sh", List.of("-c", shell + " -c '" + action + "; :'; :"), cwd.toString(),
                IdentityRef.anonymous(), reqs, env, CredentialPosture.none(), new Stdio.Inherit());
    }

    public static EnforcementPlan plan(LandlockSeccompBackend b, ExecutionSpec spec) {
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
        return run(grandchild("/bin/sh", action, cwd, Map.of(), List.of(reqs)));
    }

    public Execution start(ExecutionSpec spec) throws LaunchException {
        try (var prepared = backend.prepare(plan(backend, spec))) {
            return prepared.spawn();
        }
    }

    /** A capability-free process outside any test tree, holding {@code env} (see OutsideProcess). */
    public io.aasm.backend.landlockseccomp.internal.probe.OutsideProcess outside(Map<String, String> env) throws Exception {
        return io.aasm.backend.landlockseccomp.internal.probe.OutsideProcess.start(new io.aasm.backend.landlockseccomp.internal.probe
                .ProbeRunner() {
            @Override
            public ExitDisposition run(ExecutionSpec spec) throws LaunchException {
                return Harness.this.run(spec);
            }

            @Override
            public AutoCloseable start(ExecutionSpec spec) throws LaunchException {
                Execution execution = Harness.this.start(spec);
                return () -> {
                    execution.terminate(io.aasm.ports.backend.TerminationRequest.IMMEDIATE);
                    execution.await();
                };
            }
        }, env);
    }
}
