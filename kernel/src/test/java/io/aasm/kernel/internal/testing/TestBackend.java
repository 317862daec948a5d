package io.aasm.kernel.internal.testing;

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
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.policy.ControlRequirement;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A configurable backend for kernel tests (test sources only; never shipped). It counts every call,
 * can be told to throw from any method, and "spawns" by starting the program directly, so the
 * kernel's launch path runs end to end without a real boundary.
 */
public class TestBackend implements IsolationBackend {

    public final String id;
    public volatile BackendCapabilities capabilities;
    public volatile Set<String> throwFrom = Set.of();
    public volatile EnforcementEvidence evidence;
    public final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    public volatile ExecutionSpec lastSpec;
    public volatile EnforcementPlan lastPlan;
    /** What its plans answer to relaysTransport(). */
    public volatile boolean relays;

    public TestBackend(String id, BackendCapabilities capabilities) {
        this.id = id;
        this.capabilities = capabilities;
        this.evidence = new EnforcementEvidence(id, List.of());
    }

    public TestBackend throwing(String... methods) {
        this.throwFrom = Set.of(methods);
        return this;
    }

    public int calls(String method) {
        return calls.getOrDefault(method, new AtomicInteger()).get();
    }

    public int totalCalls() {
        return calls.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    private void enter(String method) {
        calls.computeIfAbsent(method, k -> new AtomicInteger()).incrementAndGet();
        if (throwFrom.contains(method)) {
            throw new IllegalStateException(id + " test failure in " + method);
        }
    }

    @Override
    public BackendIdentity identity() {
        enter("identity");
        return new BackendIdentity(id, "1.0-test",
                new Provenance("test sources", "Apache-2.0", false, Optional.empty(), ProvenanceStatus.FIRST_PARTY));
    }

    @Override
    public BackendCapabilities capabilities() {
        enter("capabilities");
        return capabilities;
    }

    @Override
    public BackendCapabilities refreshCapabilities() {
        enter("refreshCapabilities");
        return capabilities;
    }

    @Override
    public BackendPlan plan(ExecutionSpec spec) {
        enter("plan");
        lastSpec = spec;
        return new BackendPlan() {
            @Override
            public BackendCapabilities capabilities() {
                enter("plan.capabilities");
                return capabilities;
            }

            @Override
            public List<String> steps(ControlRequirement requirement) {
                enter("steps");
                return List.of("test step for " + requirement.domain().token());
            }

            @Override
            public boolean relaysTransport() {
                return relays;
            }
        };
    }

    @Override
    public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
        enter("prepare");
        lastPlan = plan;
        return new PreparedLaunch() {
            @Override
            public Execution spawn() throws LaunchException {
                Map<String, String> env = new java.util.TreeMap<>(plan.spec().environment());
                plan.mediation().ifPresent(m -> env.putAll(m.environment()));
                return TestBackend.this.spawn(plan.spec(), env);
            }

            @Override
            public void close() {
                enter("close");
            }
        };
    }

    private Execution spawn(ExecutionSpec spec, Map<String, String> environment) throws LaunchException {
        enter("spawn");
        List<String> cmd = new ArrayList<>();
        cmd.add(spec.program());
        cmd.addAll(spec.args());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(new File(spec.workingDirectory())).inheritIO();
        pb.environment().clear();
        pb.environment().putAll(environment);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, e.getMessage(), e);
        }
        return new Execution() {
            @Override
            public ExitDisposition await() throws InterruptedException {
                enter("await");
                int status = p.waitFor();
                return status > 128 ? new ExitDisposition.Signalled(status - 128) : new ExitDisposition.Exited(status);
            }

            @Override
            public boolean terminate(TerminationRequest request) {
                enter("terminate");
                if (!p.isAlive()) {
                    return false;
                }
                p.destroy();
                return true;
            }

            @Override
            public EnforcementEvidence evidence() {
                enter("evidence");
                return evidence;
            }
        };
    }
}
