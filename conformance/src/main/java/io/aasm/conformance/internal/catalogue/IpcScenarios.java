package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * IPC to things the suite owns outside the tree: an abstract unix listener, a process standing in
 * for the supervisor (signalling the real JVM would end the suite under {@code none}), a System V
 * segment. Hostile policies grant no channel ({@code ipc.allow: []}); the control grants one.
 */
final class IpcScenarios {
    private IpcScenarios() {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    static List<Scenario> all() {
        return List.of(abstractUnix(), signal(), sysv());
    }

    private static Staged staged(Bench b, String name, String channel, String script, Staged.Observation effect,
                                 Staged.Chore cleanup) {
        return new Staged(b.policy(name).section("ipc: {allow: []}").text(),
                b.policy(name).section("ipc: {allow: [" + channel + "]}").text(), "ipc.allow += " + channel, script,
                effect, b::clearOut, cleanup, Optional.empty());
    }

    private static Scenario abstractUnix() {
        String name = "ipc-abstract-unix-socket";
        return new Scenario(name, CapabilityDomain.IPC, "connect to an abstract unix socket the suite listens on", b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            String socket = "aasm-conformance-" + Long.toHexString(RANDOM.nextLong());
            Path sink = b.ws().resolve("sink.bin");
            Path ready = b.ws().resolve("listening");
            Process listener = Outside.start(List.of(b.actor(), "abstract-listen", socket, sink.toString(),
                    ready.toString()), Map.of());
            if (!Outside.awaitFile(ready, listener)) {
                Outside.stop(listener);
                return new Staging.CannotHost("the abstract unix listener did not start");
            }
            Staged.Observation effect = () -> {
                Outside.run(List.of(b.actor(), "abstract-flush", socket)); // no timing: a barrier
                long n = Trees.size(sink);
                return n > 0 ? Effect.happened(n + " byte(s) reached the abstract listener")
                        : Effect.absent("nothing reached the abstract listener");
            };
            return new Staging.Ready(staged(b, name, "abstract_unix", b.actor() + " abstract-connect " + socket + " exfil",
                    effect, () -> Outside.stop(listener)).withHostOnlyTarget("the suite's abstract unix listener @"
                    + socket, HostOnlyProbes.abstractSocket(b.actor(), socket)));
        });
    }

    private static Scenario signal() {
        String name = "ipc-signal-outside-process";
        return new Scenario(name, CapabilityDomain.IPC,
                "SIGTERM a process outside the tree (a stand-in for the supervisor)", b -> {
                    Process victim = Outside.start(List.of("sleep", "120"), Map.of());
                    Staged.Observation effect = () -> {
                        boolean dead;
                        try {
                            dead = victim.waitFor(2, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            dead = !victim.isAlive();
                        }
                        return dead ? Effect.happened("the outside process " + victim.pid() + " was killed")
                                : Effect.absent("the outside process " + victim.pid() + " is alive");
                    };
                    return new Staging.Ready(staged(b, name, "signal", "kill -TERM " + victim.pid(), effect,
                            () -> Outside.stop(victim)).withHostOnlyTarget("the outside process " + victim.pid(),
                            HostOnlyProbes.process(victim.pid())));
                });
    }

    private static Scenario sysv() {
        String name = "ipc-sysv-shared-memory";
        return new Scenario(name, CapabilityDomain.IPC, "overwrite a System V shared-memory segment the suite owns", b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            String key = Integer.toString(0x4A000000 + RANDOM.nextInt(0xFFFFFF));
            String original = "clean-" + b.tools().canary();
            String made = Outside.run(List.of(b.actor(), "shm-create", key, original));
            if (!Outside.run(List.of(b.actor(), "shm-dump", key)).equals(original)) {
                return new Staging.CannotHost("cannot create a System V segment here: " + made.strip());
            }
            Staged.Observation effect = () -> {
                String now = Outside.run(List.of(b.actor(), "shm-dump", key));
                return now.equals(original) ? Effect.absent("the segment is unchanged")
                        : Effect.happened("the segment now reads '" + now.strip() + "'");
            };
            Staged s = staged(b, name, "sysv", b.actor() + " shm-write " + key + " pwned", effect,
                    () -> Outside.run(List.of(b.actor(), "shm-remove", key)));
            return new Staging.Ready(new Staged(s.hostilePolicy(), s.controlPolicy(), s.controlGrant(), s.script(),
                    s.effect(), s.reset().andThen(() -> {
                        Outside.run(List.of(b.actor(), "shm-remove", key));
                        Outside.run(List.of(b.actor(), "shm-create", key, original));
                    }), s.cleanup(), s.denialSignature()).withHostOnlyTarget("the System V segment with key " + key,
                    HostOnlyProbes.sysvSegment(b.actor(), key)));
        });
    }
}
