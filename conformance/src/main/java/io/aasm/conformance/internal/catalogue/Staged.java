package io.aasm.conformance.internal.catalogue;

import io.aasm.ports.backend.Stdio;
import io.aasm.ports.report.IsolationReport;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One scenario staged in its workspace: the hostile policy, the control policy (one grant wider),
 * the action the grandchild performs, how the supervisor observes its effect, how to put the
 * fixtures back between the two runs, and how to remove them.
 *
 * <p>{@code denialSignature}, when present, is the exact diagnostic the action prints when its
 * critical step is refused by a permission decision (for example {@code "ptrace attach: errno=EPERM"}).
 * It lets a backend that denies a mechanism irrespective of any grant be judged prevented instead of
 * inconclusive, without letting a broken action (wrong path, missing binary) pass. {@code otherDenials}
 * are further such diagnostics, for backends that refuse the same step by another mechanism (a socket
 * family virtualised away instead of a capability missing).
 *
 * <p>{@code stdio} is what the launch's standard streams are (the suite's own unless a scenario needs,
 * say, a terminal); {@code audit} reads what the action recorded against the post-run report and lists
 * every way the report contradicts it (judged untruthful). {@code mediated} false launches both runs with
 * transport mediation switched off ({@code --no-proxy}): for scenarios about a boundary's own egress routes
 * (the {@code none} column never mediates, so it shows what the action does unhindered).
 */
public record Staged(String hostilePolicy, String controlPolicy, String controlGrant, String script,
                     Observation effect, Chore reset, Chore cleanup, Optional<String> denialSignature, Stdio stdio,
                     Audit audit, boolean mediated, List<String> otherDenials, Optional<HostOnly> hostOnly) {

    /**
     * The scenario's target exists only on the host (a host process, a host IPC object): in a separate kernel
     * neither the attempt nor its control can reach it. {@code probe} is a script that prints
     * {@link #PRESENT} when it observes the target and {@link #ABSENT} when it observes its absence (anything
     * else is neither); the judge runs it under the backend and on the host ({@code docs/conformance.md}).
     */
    public record HostOnly(String target, String probe) {
        public static final String PRESENT = "aasm-target-present";
        public static final String ABSENT = "aasm-target-absent";

        public HostOnly {
            Objects.requireNonNull(target);
            Objects.requireNonNull(probe);
        }
    }

    public Staged {
        Objects.requireNonNull(hostilePolicy);
        Objects.requireNonNull(controlPolicy);
        Objects.requireNonNull(controlGrant);
        Objects.requireNonNull(script);
        Objects.requireNonNull(effect);
        Objects.requireNonNull(reset);
        Objects.requireNonNull(cleanup);
        Objects.requireNonNull(denialSignature);
        Objects.requireNonNull(stdio);
        Objects.requireNonNull(audit);
        otherDenials = List.copyOf(otherDenials);
        Objects.requireNonNull(hostOnly);
        if (denialSignature.isEmpty() && !otherDenials.isEmpty()) {
            throw new IllegalArgumentException("further denial diagnostics need a first one");
        }
        if (hostilePolicy.equals(controlPolicy) && !controlGrant.startsWith("none:")) {
            throw new IllegalArgumentException("a control must differ from the hostile policy by one grant");
        }
    }

    public Staged(String hostilePolicy, String controlPolicy, String controlGrant, String script, Observation effect,
                  Chore reset, Chore cleanup, Optional<String> denialSignature) {
        this(hostilePolicy, controlPolicy, controlGrant, script, effect, reset, cleanup, denialSignature,
                new Stdio.Inherit(), post -> List.of(), true, List.of(), Optional.empty());
    }

    public Staged withStdio(Stdio s) {
        return new Staged(hostilePolicy, controlPolicy, controlGrant, script, effect, reset, cleanup, denialSignature,
                s, audit, mediated, otherDenials, hostOnly);
    }

    public Staged withAudit(Audit a) {
        return new Staged(hostilePolicy, controlPolicy, controlGrant, script, effect, reset, cleanup, denialSignature,
                stdio, a, mediated, otherDenials, hostOnly);
    }

    /** Both runs without transport mediation: the scenario is about the boundary's own egress routes. */
    public Staged withoutMediation() {
        return new Staged(hostilePolicy, controlPolicy, controlGrant, script, effect, reset, cleanup, denialSignature,
                stdio, audit, false, otherDenials, hostOnly);
    }

    /** The same, also recognising {@code more} as the action's critical step refused. */
    public Staged withOtherDenials(String... more) {
        return new Staged(hostilePolicy, controlPolicy, controlGrant, script, effect, reset, cleanup, denialSignature,
                stdio, audit, mediated, List.of(more), hostOnly);
    }

    /** The same, its target declared host-only, with the probe that observes whether it exists. */
    public Staged withHostOnlyTarget(String target, String probe) {
        return new Staged(hostilePolicy, controlPolicy, controlGrant, script, effect, reset, cleanup, denialSignature,
                stdio, audit, mediated, otherDenials, Optional.of(new HostOnly(target, probe)));
    }

    /** The absence probe as a launch of its own (same policy handling), observing nothing by effect. */
    public Staged probing() {
        HostOnly h = hostOnly.orElseThrow();
        return new Staged(hostilePolicy, controlPolicy, controlGrant, h.probe(), () -> Effect.absent("probe"),
                Chore.nothing(), Chore.nothing(), Optional.empty(), stdio, post -> List.of(), mediated, List.of(),
                hostOnly);
    }

    /** Every diagnostic that means the critical step was refused, the first one first. */
    public List<String> denialSignatures() {
        List<String> all = new java.util.ArrayList<>();
        denialSignature.ifPresent(all::add);
        all.addAll(otherDenials);
        return all;
    }

    /** Observes the effect after the launch ended and its tree was torn down. */
    @FunctionalInterface
    public interface Observation {
        Effect observe() throws IOException;

        /**
         * The effect in the light of the launch's reports. Most effects do not depend on them; one that
         * does ("data read outside what the report names as granted") overrides this.
         */
        default Effect observe(IsolationReport pre, IsolationReport post) throws IOException {
            return observe();
        }

        /** An observation that needs the reports (see {@link #observe(IsolationReport, IsolationReport)}). */
        static Observation withReports(Reported r) {
            return new Observation() {
                @Override
                public Effect observe() {
                    throw new IllegalStateException("this effect is judged against the launch's reports");
                }

                @Override
                public Effect observe(IsolationReport pre, IsolationReport post) throws IOException {
                    return r.observe(pre, post);
                }
            };
        }
    }

    /** An effect judged against the launch's reports. */
    @FunctionalInterface
    public interface Reported {
        Effect observe(IsolationReport pre, IsolationReport post) throws IOException;
    }

    /** Contradictions between what the action recorded and the post-run report (empty when there are none). */
    @FunctionalInterface
    public interface Audit {
        List<String> contradictions(IsolationReport post) throws IOException;
    }

    /** A fixture chore (reset between runs, cleanup at the end). */
    @FunctionalInterface
    public interface Chore {
        void run() throws IOException;

        static Chore nothing() {
            return () -> { };
        }

        default Chore andThen(Chore next) {
            return () -> {
                try {
                    run();
                } finally {
                    next.run();
                }
            };
        }
    }
}
