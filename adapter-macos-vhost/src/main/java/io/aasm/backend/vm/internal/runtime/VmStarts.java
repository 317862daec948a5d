package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.egress.GuestEgress;
import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.guest.PlanEncoder;
import io.aasm.backend.vm.internal.guest.StartOutcome;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.backend.vm.internal.guest.CanaryPlan;
import io.aasm.ports.trace.LaunchStages;
import io.aasm.ports.transport.RelayEndpoint;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Starts one launch: a guest from the hypervisor, then the plan (with a fresh entropy seed and the host's
 * clock: every clone of a template starts with the same random state and a stale clock) and the agent's
 * answer. A guest that does not answer in time is killed; any failure kills the VM before it is reported.
 */
final class VmStarts {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Hypervisor hypervisor;
    private final ScheduledExecutorService timers;
    private final long answerMillis;

    VmStarts(Hypervisor hypervisor, ScheduledExecutorService timers, long answerMillis) {
        this.hypervisor = hypervisor;
        this.timers = timers;
        this.answerMillis = answerMillis;
    }

    /** The mediation session a launch's proxy port leads to, and the variables that name the port. */
    record Mediated(RelayEndpoint endpoint, Map<String, String> environment) {
    }

    Started start(VmLaunch launch) throws LaunchException {
        return start(launch, Optional.empty());
    }

    /** {@code mediated}: required exactly when the launch has a proxy port. */
    Started start(VmLaunch launch, Optional<Mediated> mediated) throws LaunchException {
        if (launch.proxyPort().isPresent() != mediated.isPresent()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, launch.proxyPort().isPresent()
                    ? "an egress grant needs this launch's mediation session, and none was opened"
                    : "a mediation session was given to a launch without a proxy port");
        }
        long t0 = System.nanoTime();
        LaunchStages.mark("vm_prepare");
        Machine m;
        try {
            m = hypervisor.start(launch.slots());
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "starting the VM failed: " + e.getMessage(), e);
        }
        GuestSession session = new GuestSession(m.channel());
        ScheduledFuture<?> watchdog = timers.schedule(m::close, answerMillis, TimeUnit.MILLISECONDS);
        byte[] seed = new byte[64];
        RANDOM.nextBytes(seed);
        Optional<CanaryPlan> canaries = GuestCanaries.choose(launch);
        GuestPlan plan = mediated.map(x -> launch.plan().withEnvironment(x.environment())).orElse(launch.plan());
        byte[] encoded = PlanEncoder.encode(plan, seed, Instant.now(), canaries, launch.proxyPort(), m.transport());
        LaunchStages.mark("vm_plan");
        StartOutcome out = session.start(encoded);
        watchdog.cancel(false);
        LaunchStages.mark("vm_started"); // the agent's answer: boundary installed, canaries tried, execve done
        long answered = (System.nanoTime() - t0) / 1_000_000L;
        if (out instanceof StartOutcome.Started s) {
            Optional<GuestEgress> egress = mediated.map(x -> new GuestEgress(session.channel(), x.endpoint()));
            egress.ifPresent(session::streams);
            return new Started(launch, m, session, s.fields(), t0, m.startMillis(), answered, canaries, egress);
        }
        m.close();
        if (out instanceof StartOutcome.Refused r && r.token().equals("canary_escaped")) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "a canary got through the guest boundary, "
                    + "so the program was not started: " + r.detail() + " [canary_escaped]");
        }
        if (out instanceof StartOutcome.Refused r) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "the guest agent refused the plan ("
                    + r.token() + "): " + r.detail());
        }
        if (out instanceof StartOutcome.ExecFailed f) {
            throw new LaunchException(f.errno() == 2 ? LaunchFailureKind.NOT_FOUND : LaunchFailureKind.NOT_EXECUTABLE,
                    "execve of " + launch.plan().program() + " failed in the guest with errno " + f.errno()
                            + (f.errno() == 2 || f.errno() == 13 ? " (the program, its interpreter or its libraries may "
                            + "lie outside the filesystem read grants: only granted paths exist in the guest)" : ""));
        }
        String why = ((StartOutcome.Lost) out).why();
        throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, answered >= answerMillis
                ? "the guest did not answer the plan within " + answerMillis + " ms" : why);
    }
}
