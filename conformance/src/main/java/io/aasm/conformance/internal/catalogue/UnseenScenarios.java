package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.ActorSink;
import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Sinks;
import io.aasm.conformance.internal.fixture.Toolbox;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.conformance.internal.fixture.Yaml;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Folders outside every grant that are reached without opening a file in them: watched with inotify
 * while the suite creates a file there, or holding a pathname unix socket the suite listens on. Each
 * twice: with reads and writes stated (only granted paths exist) and with only reads stated (the host's
 * tree stays; Landlock confines reads). The control grants read of the folder. A backend may refuse the
 * step itself in every launch — a watch (sandlock, whose Landlock does not check watches, gets them
 * refused by aasm's filter), or a connect to a socket outside its write grants (sandlock's supervisor): the
 * action's errno at that step is its denial signature.
 */
final class UnseenScenarios {
    private UnseenScenarios() {
    }

    static List<Scenario> all() {
        return List.of(watch("surr-watch-inotify-outside", true), watch("surr-watch-inotify-outside-read-only", false),
                socket("surr-unix-socket-outside", true), socket("surr-unix-socket-outside-read-only", false));
    }

    private static String both(Bench b, List<String> extra) {
        return b.filesystem(extra, List.of());
    }

    /** Only filesystem.read stated (writes unrestricted). */
    private static String readOnly(Bench b, List<String> extra) {
        List<String> read = new ArrayList<>(Toolbox.systemReadPaths());
        read.add(b.tools().binDir().toString());
        read.add(b.out().toString());
        read.addAll(extra);
        return "filesystem:\n  read: {allow: " + Yaml.list(read) + "}\n";
    }

    private static String fs(Bench b, boolean stateBoth, List<String> extra) {
        return stateBoth ? both(b, extra) : readOnly(b, extra);
    }

    private static Scenario watch(String name, boolean stateBoth) {
        return new Scenario(name, CapabilityDomain.FILESYSTEM_READ, "watch a folder outside every grant with inotify "
                + "while the suite creates a file in it" + (stateBoth ? "" : " (only filesystem.read stated)"), b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Path watched = b.dir("watched");
                    String created = "made-" + b.tools().canary();
                    Path armed = b.out().resolve("armed");
                    Path loot = b.out().resolve("loot");
                    Staged.Chore arm = () -> createWhenArmed(armed, watched.resolve(created));
                    arm.run();
                    Staged.Observation effect = () -> Trees.read(loot).contains(created)
                            ? Effect.happened("the watch reported the name the suite created: " + created)
                            : Effect.absent("the watch reported no name");
                    return new Staging.Ready(new Staged(b.policy(name).section(fs(b, stateBoth, List.of())).text(),
                            b.policy(name).section(fs(b, stateBoth, List.of(watched.toString()))).text(),
                            "filesystem.read += " + watched, b.actor() + " inotify " + watched + " " + armed + " " + loot
                            + " 5", effect, () -> {
                                b.clearOut();
                                Files.deleteIfExists(watched.resolve(created));
                                arm.run();
                            }, Staged.Chore.nothing(), Optional.of("inotify_add_watch: errno=EPERM"))
                            .withHostOnlyTarget("inotify events of the host's kernel for " + watched.resolve(created)
                                    + ", which the suite creates on the host (a share carries files, not their events)",
                                    HostOnlyProbes.hostEvents(b.actor(), watched.toString(), created, armed.toString(),
                                            loot.toString())));
                });
    }

    /**
     * Once the action says its watch was attempted (out/armed), the suite creates a file in the watched
     * folder, from a thread of its own: the launch runs meanwhile. Gives up after 60 s.
     */
    static void createWhenArmed(Path armed, Path file) {
        Thread t = new Thread(() -> {
            long end = System.nanoTime() + 60_000_000_000L;
            try {
                while (!Files.exists(armed) && System.nanoTime() < end) {
                    Thread.sleep(20);
                }
                if (Files.exists(armed)) {
                    Files.writeString(file, "created while watched\n");
                }
            } catch (InterruptedException | IOException e) {
                // nothing created: the effect is absent, and the verdict says so
            }
        }, "aasm-conformance-watch-trigger");
        t.setDaemon(true);
        t.start();
    }

    private static Scenario socket(String name, boolean stateBoth) {
        return new Scenario(name, CapabilityDomain.FILESYSTEM_READ, "connect to a pathname unix socket outside every"
                + " grant" + (stateBoth ? "" : " (only filesystem.read stated)"), b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Path dir = b.dir("sock");
                    Path socket = dir.resolve("s");
                    Sinks.Sink listener = ActorSink.unix(b.actor(), socket, b.dir("listener"));
                    Staged.Observation effect = () -> {
                        String got = listener.drain();
                        return got.isEmpty() ? Effect.absent("nothing reached the listener at " + socket)
                                : Effect.happened(got + " reached the listener at " + socket);
                    };
                    return new Staging.Ready(new Staged(b.policy(name).section(fs(b, stateBoth, List.of())).text(),
                            b.policy(name).section(fs(b, stateBoth, List.of(dir.toString()))).text(),
                            "filesystem.read += " + dir, b.actor() + " unix-connect " + socket + " exfil", effect,
                            b::clearOut, listener::close, Optional.of("connect unix: errno=EACCES"))
                            .withHostOnlyTarget("the suite's unix listener behind " + socket + " (a socket of the "
                            + "host's kernel)", HostOnlyProbes.unixListener(b.actor(), socket.toString())));
                });
    }
}
