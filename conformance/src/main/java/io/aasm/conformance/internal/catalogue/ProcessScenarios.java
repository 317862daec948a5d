package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A process ceiling, and daemons that try to outlive the launch. A daemon's heartbeat file proves it
 * ran; the effect is a process of the launch (its command line carries the workspace path) alive
 * after the launch ended. No grant can permit surviving teardown, so the daemon's own heartbeat is
 * the control.
 */
final class ProcessScenarios {
    private ProcessScenarios() {
    }

    private static final int SPAWN = 48;
    private static final int CEILING = 16;

    static List<Scenario> all() {
        return List.of(forkBomb(), spawnDenied(),
                daemon("proc-setsid-daemon", "start a setsid daemon and exit",
                        (loop, b) -> "setsid sh -c '" + loop + "' " + b.token() + " &\n" + until(beat(b))),
                daemon("proc-double-fork-daemon", "double-fork an orphan that the launch's parent no longer sees",
                        (loop, b) -> "( sh -c '" + loop + "' " + b.token() + " & )\n" + until(beat(b))),
                daemon("proc-daemon-ignoring-sigterm", "start a setsid daemon that ignores TERM, HUP and INT",
                        (loop, b) -> "setsid sh -c 'trap \"\" TERM HUP INT; " + loop + "' " + b.token() + " &\n"
                                + until(beat(b))));
    }

    private static Scenario forkBomb() {
        String name = "proc-fork-bomb-ceiling";
        return new Scenario(name, CapabilityDomain.PROCESS_CREATION,
                "spawn " + SPAWN + " concurrent processes under a ceiling of " + CEILING, b -> {
                    // Every child stays until all were spawned, so the count is of concurrent processes, never of
                    // sequential ones. A child waits without forking (a read on a FIFO): at the ceiling a child
                    // that forked `sleep` would die of "Cannot fork" and make room for the next one. The spawning
                    // loop runs in a subshell, so the ceiling ending it still lets the script release the children;
                    // the script holds the FIFO open read-write, so a child that opens it late still finds its line.
                    // Without a FIFO nothing is spawned: the control then shows nothing and the cell is inconclusive.
                    // The gate is only scaffolding, so where it lives does not matter: out/ first, else /dev/shm.
                    // In a VM guest out/ is a 9p share, where QEMU refuses every special file (ENXIO); the guest's
                    // /dev/shm is a tmpfs of its own (docs/vm.md). Elsewhere out/ works and nothing changes.
                    String gate = b.out() + "/gate";
                    String script = "g=" + gate + "\nmkfifo $g 2>/dev/null || { g=/dev/shm/aasm-gate-$$; mkfifo $g; }"
                            + " || exit 0\nexec 3<>$g\n"
                            + "( i=0; while [ $i -lt " + SPAWN + " ]; do ( : > " + b.out() + "/p.$i; read x < $g"
                            + " ) & i=$((i+1)); done )\n"
                            + "i=0; while [ $i -lt " + SPAWN + " ]; do echo >&3; i=$((i+1)); done\nwait\n"
                            + "[ $g = " + gate + " ] || rm -f $g";
                    Staged.Observation effect = () -> {
                        long n;
                        try (var s = Files.list(b.out())) {
                            n = s.filter(p -> p.getFileName().toString().startsWith("p.")).count();
                        }
                        return n > CEILING ? Effect.happened(n + " processes ran concurrently (ceiling " + CEILING + ")")
                                : Effect.absent("only " + n + " of " + SPAWN + " processes ran");
                    };
                    return new Staging.Ready(new Staged(
                            b.policy(name).section("process: {max: " + CEILING + "}").text(),
                            b.policy(name).section("process: {max: 512}").text(), "process.max 16 -> 512",
                            script, effect, b::clearOut, Staged.Chore.nothing(), Optional.empty()));
                });
    }

    /**
     * {@code spawn: deny}: the program may create no process at all. Here the acting process cannot be a
     * grandchild, since creating one is the very thing denied: the launched {@code sh} must fork the {@code sh}
     * that runs the action, and that action forks once more to write its marker. Denied, neither exists and the
     * marker is absent; the control (a ceiling instead of the denial) shows the same chain writing it, so an
     * absence that is not the boundary's (a broken action, a launch that never ran) is inconclusive, not prevented.
     */
    private static Scenario spawnDenied() {
        String name = "proc-spawn-denied";
        return new Scenario(name, CapabilityDomain.PROCESS_CREATION, "create a process under spawn: deny", b -> {
            Path marker = b.out().resolve("spawned");
            Staged.Observation effect = () -> Files.exists(marker)
                    ? Effect.happened("a process of the launch ran and wrote " + marker.getFileName())
                    : Effect.absent("no process of the launch wrote " + marker.getFileName());
            return new Staging.Ready(new Staged(b.policy(name).section("process: {spawn: deny}").text(),
                    b.policy(name).section("process: {max: 64}").text(), "process.spawn deny -> max 64",
                    "/bin/sh -c ': > " + marker + "'", effect, b::clearOut, Staged.Chore.nothing(), Optional.empty()));
        });
    }

    /** A bounded wait (10 s) for a file to appear: the script goes on as soon as it exists. */
    static String until(Path file) {
        return "n=0; while [ ! -s " + file + " ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done";
    }

    static String until(String file) {
        return "n=0; while [ ! -e " + file + " ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done";
    }

    private static Path beat(Bench b) {
        return b.out().resolve("alive");
    }

    private interface Spawner {
        String script(String loop, Bench b);
    }

    private static Scenario daemon(String name, String summary, Spawner spawner) {
        return new Scenario(name, CapabilityDomain.PROCESS_CREATION, summary, b -> {
            Path beat = beat(b);
            String loop = "while :; do echo x >> " + beat + "; sleep 0.2; done";
            Staged.Observation effect = () -> {
                List<ProcessHandle> alive = Outside.carrying(b.token());
                long before = Trees.size(beat);
                if (!alive.isEmpty()) {
                    sleep();
                    alive = Outside.carrying(b.token());
                }
                String pids = alive.stream().map(h -> Long.toString(h.pid())).reduce((x, y) -> x + "," + y).orElse("");
                Outside.kill(alive);
                if (!alive.isEmpty()) {
                    return Effect.happened("still running after teardown: pid(s) " + pids + "; heartbeat " + before
                            + " -> " + Trees.size(beat) + " bytes");
                }
                return before > 0 ? Effect.absentAfterAction("the daemon ran (heartbeat " + before
                        + " bytes) and nothing of the launch survived teardown")
                        : Effect.absent("the daemon never wrote a heartbeat");
            };
            return new Staging.Ready(new Staged(b.policy(name).section("process: {max: 64}").text(),
                    b.policy(name).section("process: {max: 64}").text(),
                    "none: no grant permits surviving teardown; the daemon's heartbeat is the control",
                    spawner.script(loop, b), effect, b::clearOut, () -> Outside.kill(Outside.carrying(b.token())),
                    Optional.empty()));
        });
    }

    private static void sleep() throws IOException {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
