package io.aasm.backend.container.internal;

import io.aasm.backend.container.internal.canary.CanaryBait;
import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.backend.container.internal.runtime.CreateRequest;
import io.aasm.backend.container.internal.runtime.Launch;
import io.aasm.backend.container.internal.runtime.Owner;
import io.aasm.backend.container.internal.runtime.StateDir;
import io.aasm.backend.container.internal.runtime.TransportRelay;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.RelayEndpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Makes what one plan needs outside the program (its generated files, the create request with the
 * launch's labels) and creates its container with its guard. A failure releases whatever was made.
 */
final class Launches {
    private final ContainerHost host;
    private final ScheduledExecutorService timers;

    Launches(ContainerHost host, ScheduledExecutorService timers) {
        this.host = host;
        this.timers = timers;
    }

    /** Descriptor numbers of the program's streams; -1 detaches one (probes). */
    static Launch.Streams streams(Stdio stdio) {
        if (stdio instanceof Stdio.Descriptors d) {
            return new Launch.Streams(d.stdin(), d.stdout(), d.stderr());
        }
        return new Launch.Streams(0, 1, 2);
    }

    static Launch.Streams detached() {
        return new Launch.Streams(-1, -1, -1);
    }

    Launch create(ContainerHost.State.Ready ready, ContainerPlan plan, Launch.Streams streams) throws LaunchException {
        return create(ready, plan, streams, Optional.empty());
    }

    /** Where a mediated launch's relay delivers (the session's endpoint) and the variables that name the relay. */
    record Mediated(RelayEndpoint endpoint, Map<String, String> environment) {
        static Optional<Mediated> of(Optional<MediationSession> session) {
            return session.flatMap(m -> m.relay().map(r -> new Mediated(r, m.environment())));
        }
    }

    /** {@code canaries}: the launch's canaries, run by the init before the program; released with the launch. */
    Launch create(ContainerHost.State.Ready ready, ContainerPlan plan, Launch.Streams streams,
                  Optional<CanaryBait> canaries) throws LaunchException {
        return create(ready, plan, streams, canaries, Optional.empty());
    }

    /**
     * {@code mediated}: for a plan with a proxy port, the session's relay endpoint and proxy variables (the
     * variables join the environment; the relay starts with the container).
     */
    Launch create(ContainerHost.State.Ready ready, ContainerPlan planned, Launch.Streams streams,
                  Optional<CanaryBait> canaries, Optional<Mediated> mediated) throws LaunchException {
        Optional<TransportRelay.Setup> relay;
        try {
            relay = relay(ready, planned, mediated);
        } catch (LaunchException e) {
            canaries.ifPresent(CanaryBait::close);
            throw e;
        }
        ContainerPlan plan = relay.isPresent() ? planned.withEnvironment(mediated.orElseThrow().environment()) : planned;
        boolean tty = streams.in() >= 0 && io.aasm.backend.container.internal.runtime.TerminalMode.usable(streams.in());
        StateDir state = host.state();
        Optional<Path> generated = Optional.empty();
        try {
            if (!plan.generatedFiles().isEmpty()) {
                generated = Optional.of(state.generated(plan.generatedFiles()));
            }
            Owner owner = host.owner();
            Map<String, String> labels = Map.of(Owner.BACKEND_LABEL, io.aasm.backend.container.internal.runtime
                    .ContainerExecution.BACKEND_ID, Owner.OWNER_LABEL, owner.self(), Owner.LAUNCH_LABEL, owner.nextLaunch());
            byte[] request = CreateRequest.build(plan, new CreateRequest.Context(ready.image().id(), ready.image().pinned(),
                    ready.user(), hostname(), state.emptyFile(), generated.orElse(state.root()), ready.init().verified(),
                    ready.facts().dataRoot(), labels, tty, tty ? io.aasm.backend.container.internal.runtime.TerminalMode
                    .size(streams.out(), streams.in()) : Optional.empty(), relay.map(TransportRelay.Setup::binary)),
                    canaries.map(CanaryBait::initWords).orElse(java.util.List.of()));
            return Launch.create(ready.engine(), plan, request, generated, ready.guard().verified(), streams, tty, timers,
                    canaries, relay);
        } catch (IOException e) {
            canaries.ifPresent(CanaryBait::close);
            generated.ifPresent(StateDir::delete);
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "preparing the container failed: "
                    + e.getMessage(), e);
        }
    }

    /** The relay a plan with a proxy port needs; refused when no session came with it (nothing is made then). */
    private static Optional<TransportRelay.Setup> relay(ContainerHost.State.Ready ready, ContainerPlan plan,
                                                        Optional<Mediated> mediated) throws LaunchException {
        if (plan.proxyPort().isEmpty()) {
            return Optional.empty();
        }
        if (mediated.isEmpty()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the plan relays the program's egress to "
                    + "transport mediation, but no mediation session with a relay endpoint came with it; nothing was "
                    + "started");
        }
        try {
            return Optional.of(new TransportRelay.Setup(ready.relay().verified(), plan.proxyPort().getAsInt(),
                    mediated.get().endpoint()));
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the transport relay is not usable: "
                    + e.getMessage(), e);
        }
    }

    /** The host's name, so a program sees the same name as outside (the container still has its own UTS). */
    private String hostname() {
        try {
            return Files.readString(host.settings().procRoot().resolve("sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "aasm-container";
        }
    }
}
