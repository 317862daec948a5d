package io.aasm.backend.container.internal;

import io.aasm.backend.container.internal.engine.Engine;
import io.aasm.backend.container.internal.engine.EngineFacts;
import io.aasm.backend.container.internal.engine.EngineSocket;
import io.aasm.backend.container.internal.host.EngineFootprint;
import io.aasm.backend.container.internal.host.LibC;
import io.aasm.backend.container.internal.runtime.BundledBinary;
import io.aasm.backend.container.internal.runtime.Owner;
import io.aasm.backend.container.internal.runtime.RootImage;
import io.aasm.backend.container.internal.runtime.StateDir;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * The engine this backend uses, found and checked lazily (a backend whose engine starts later becomes
 * available then): the socket, the negotiated API, what the engine says about itself, the root image,
 * the guard and the user programs run as. On the first connection it reclaims the containers of earlier
 * supervisors that were killed together with their guards.
 */
final class ContainerHost {
    private static final long RETRY_NANOS = 2_000_000_000L;

    sealed interface State {
        record Ready(Engine engine, EngineFacts facts, RootImage.Resolved image, BundledBinary guard, BundledBinary init,
                     String user, BundledBinary relay)
                implements State {
        }

        record Down(String reason) implements State {
        }
    }

    private final Settings settings;
    private final Owner owner;
    private final StateDir state;
    private final EngineFootprint footprint;
    private State current;
    private long lastAttempt;
    private int reclaimed = -1;

    ContainerHost(Settings settings, Owner owner, StateDir state) {
        this.settings = settings;
        this.owner = owner;
        this.state = state;
        this.footprint = new EngineFootprint(settings.procRoot());
    }

    synchronized State current() {
        if (current instanceof State.Ready) {
            return current;
        }
        if (current == null || System.nanoTime() - lastAttempt > RETRY_NANOS) {
            lastAttempt = System.nanoTime();
            current = connect();
        }
        return current;
    }

    /** Forgets the connection: the next call finds the engine again (aasm probe --refresh). */
    synchronized void forget() {
        current = null;
    }

    private State connect() {
        Optional<String> user = user();
        if (user.isEmpty()) {
            return new State.Down("user '" + settings.user().orElse("") + "' is not uid:gid (two numbers)");
        }
        EngineSocket.Located where = EngineSocket.locate(settings.engineSocket(), settings.env());
        if (where instanceof EngineSocket.Located.Missing m) {
            return new State.Down(m.reason());
        }
        try {
            Engine engine = Engine.connect(((EngineSocket.Located.Found) where).socket());
            EngineFacts facts = EngineFacts.read(engine);
            if (!facts.seccomp()) {
                return new State.Down("the engine at " + engine.http().socket() + " applies no seccomp profiles ("
                        + "SecurityOptions " + facts.securityOptions() + "): the hardening baseline cannot be installed");
            }
            if (!facts.os().isEmpty() && !facts.os().equals("linux")) {
                return new State.Down("the engine runs " + facts.os() + " containers; only linux is supported");
            }
            BundledBinary guard = BundledBinary.embedded(state.root(), BundledBinary.GUARD);
            BundledBinary init = BundledBinary.embedded(state.root(), BundledBinary.INIT);
            BundledBinary relay = BundledBinary.embedded(state.root(), BundledBinary.RELAY);
            RootImage.Resolved image = RootImage.resolve(engine, settings.image());
            if (reclaimed < 0) {
                reclaimed = Reclaimer.reclaim(engine, owner);
            }
            return new State.Ready(engine, facts, image, guard, init, user.get(), relay);
        } catch (IOException | RuntimeException e) {
            return new State.Down("the container engine is not usable: " + e.getMessage());
        }
    }

    /** The configured uid:gid, else the caller's own (as every backend runs programs). */
    Optional<String> user() {
        if (settings.user().isPresent()) {
            String u = settings.user().get();
            return u.matches("\\d+:\\d+") ? Optional.of(u) : Optional.empty();
        }
        return Optional.of(LibC.INSTANCE.geteuid() + ":" + LibC.INSTANCE.getegid());
    }

    EngineFootprint.Footprint footprint(Engine engine) {
        return footprint.scan(engine.http().socket());
    }

    StateDir state() {
        return state;
    }

    Owner owner() {
        return owner;
    }

    Settings settings() {
        return settings;
    }

    Map<String, String> env() {
        return settings.env();
    }
}
