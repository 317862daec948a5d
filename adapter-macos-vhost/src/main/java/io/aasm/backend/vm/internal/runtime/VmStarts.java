package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.guest.PlanEncoder;
import io.aasm.backend.vm.internal.guest.StartOutcome;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.backend.vm.internal.guest.CanaryPlan;
import java.io.IOException;
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

    Started start(VmLaunch launch) throws LaunchException {
        long t0 = System.nanoTime();
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
        StartOutcome out = session.start(PlanEncoder.encode(launch.plan(), seed, Instant.now(), canaries));
        watchdog.cancel(false);
        long answered = (System.nanoTime() - t0) / 1_000_000L;
        if (out instanceof StartOutcome.Started s) {
            return new Started(launch, m, session, s.fields(), t0, m.startMillis(), answered, canaries);
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
