package io.aasm.conformance.internal.run;

import io.aasm.conformance.internal.catalogue.Effect;
import io.aasm.conformance.internal.catalogue.Staged;
import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.report.IsolationReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Runs one trial through the kernel, exactly as a user's launch would go: policy file, decide,
 * launch, await. The launched program is {@code sh}, which starts a second {@code sh}, which runs the
 * action script: the actor is a grandchild. The action's own output goes to out/diag. Backends' launches are
 * transport-mediated unless the scenario says otherwise; {@code none} never is (it shows the action unhindered).
 */
final class TrialRunner {
    /** Beyond every policy's own wall-clock ceiling (120 s at most): the last resort against a hung launch. */
    static final long WATCHDOG_MILLIS = 150_000L;

    private final IsolationKernel kernel;

    TrialRunner(IsolationKernel kernel) {
        this.kernel = kernel;
    }

    Trial run(String backend, Bench b, String policy, Staged staged) throws IOException, InterruptedException {
        Path policyFile = b.ws().resolve("policy.yaml");
        Files.writeString(policyFile, policy);
        Path act = b.out().resolve("act.sh");
        Files.writeString(act, "exec >> " + b.out() + "/diag 2>&1\nexport PATH=/usr/local/bin:/usr/bin:/bin\n"
                + staged.script() + "\n");
        String inner = "/bin/sh -c '/bin/sh " + act + "; exit $?'; exit $?";
        boolean none = backend.equals(SuiteRunner.NONE);
        LaunchRequest request = new LaunchRequest(Optional.of(none ? IsolationClass.NONE : IsolationClass.AUTO),
                none ? Optional.empty() : Optional.of(backend), Optional.of(policyFile.toString()), "/bin/sh",
                List.of("-c", inner), b.out().toString(), new IdentityRef("aasm-conformance", Optional.empty(), List.of()),
                b.tools().callerEnvironment(), staged.stdio(), !none && staged.mediated());
        try {
            LaunchDecision decision = kernel.decide(request);
            if (decision instanceof LaunchDecision.PolicyRejected r) {
                return new Trial.Rejected(r.problems().stream().map(Object::toString).collect(Collectors.joining("; ")));
            }
            if (decision instanceof LaunchDecision.Refused r) {
                return new Trial.Refused(r.message());
            }
            IsolationReport pre = decision instanceof LaunchDecision.Confined c ? c.report()
                    : ((LaunchDecision.Unconfined) decision).report();
            LaunchSession session;
            try {
                session = kernel.launch(decision);
            } catch (LaunchException e) {
                // the backend declined to install the boundary as planned: a refusal before launch, like a decided one
                return e.kind() == LaunchFailureKind.BOUNDARY_REFUSED ? new Trial.Refused(e.getMessage())
                        : new Trial.NotLaunched("launch failed (" + e.kind().token() + "): " + e.getMessage());
            }
            Optional<ExitDisposition> ended = awaitGuarded(session);
            if (ended.isEmpty()) {
                return new Trial.Hung("the launch did not end within " + WATCHDOG_MILLIS / 1000
                        + " s, nor 10 s after an immediate termination request");
            }
            ExitDisposition exit = ended.get();
            if (exit instanceof ExitDisposition.NotStarted ns) {
                return ns.kind() == LaunchFailureKind.BOUNDARY_REFUSED ? new Trial.Refused(ns.detail())
                        : new Trial.NotLaunched("not started (" + ns.kind().token() + "): " + ns.detail());
            }
            IsolationReport post = session.postRunReport();
            Effect effect = staged.effect().observe(pre, post);
            return new Trial.Ran(pre, post, exit, Trees.read(b.out().resolve("diag")).strip(), effect);
        } finally {
            // anything of the launch still running is reported by the scenario's effect; never left behind
            Outside.kill(Outside.carrying(b.token()));
        }
    }

    /**
     * Awaits on a separate thread: a backend whose await never returns, even after an immediate
     * termination request, must not hang the suite. Empty means the launch never ended.
     */
    private static Optional<ExitDisposition> awaitGuarded(LaunchSession session) throws InterruptedException {
        CompletableFuture<ExitDisposition> done = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                done.complete(session.await());
            } catch (InterruptedException | RuntimeException e) {
                done.completeExceptionally(e);
            }
        }, "aasm-conformance-await");
        waiter.setDaemon(true);
        waiter.start();
        try {
            return Optional.of(done.get(WATCHDOG_MILLIS, TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            session.terminate(TerminationRequest.IMMEDIATE);
            try {
                return Optional.of(done.get(10, TimeUnit.SECONDS));
            } catch (TimeoutException | ExecutionException again) {
                return Optional.empty();
            }
        } catch (ExecutionException e) {
            return Optional.empty();
        }
    }
}
