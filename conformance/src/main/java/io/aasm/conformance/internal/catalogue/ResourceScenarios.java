package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.conformance.internal.fixture.Yaml;
import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Ceilings. The effect is the work done past the ceiling: bytes on disk, or a marker the program can
 * only write after it held the resource (touched the memory, burned the CPU, held the descriptors,
 * outlived the deadline). The control raises the one ceiling.
 */
final class ResourceScenarios {
    private ResourceScenarios() {
    }

    static List<Scenario> all() {
        return List.of(
                marker("res-memory-ceiling", "touch 256 MiB under a 64 MiB memory ceiling", "memory: 64MiB",
                        "memory: 1GiB", (b, loot) -> b.actor() + " memory 256 " + loot, "touched"),
                marker("res-cpu-seconds-ceiling", "burn 2 CPU seconds under a 1-second ceiling", "cpu_seconds: 1",
                        "cpu_seconds: 30", (b, loot) -> b.actor() + " cpu 2 " + loot, "burned"),
                marker("res-open-files-ceiling", "hold 200 descriptors under a ceiling of 32", "open_files: 32",
                        "open_files: 4096", (b, loot) -> b.actor() + " nofile 200 " + loot, "held 200"),
                marker("res-wall-clock-ceiling", "outlive a 1-second wall-clock deadline", "wall_clock_seconds: 1",
                        "wall_clock_seconds: 20", (b, loot) -> "sleep 3; echo late > " + loot, "late"),
                fileSize());
    }

    private interface Action {
        String script(Bench b, Path loot);
    }

    /** CPU seconds are wall-clock seconds only on an idle host: the CPU scenario gets a generous deadline. */
    private static String limits(String ceiling) {
        String wall = ceiling.startsWith("cpu_seconds") ? "60" : Integer.toString(Yaml.WALL_CLOCK_SECONDS);
        return "resources: {" + ceiling + (ceiling.startsWith("wall_clock") ? "" : ", wall_clock_seconds: " + wall) + "}";
    }

    private static Scenario marker(String name, String summary, String hostile, String control, Action action,
                                   String proof) {
        return new Scenario(name, CapabilityDomain.RESOURCE, summary, b -> {
            boolean needsActor = !name.startsWith("res-wall-clock");
            if (needsActor && b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            Path loot = b.out().resolve("loot");
            Staged.Observation effect = () -> Trees.read(loot).contains(proof)
                    ? Effect.happened("the program did the work past the ceiling: " + Trees.read(loot).strip())
                    : Effect.absent("no proof of work past the ceiling");
            return new Staging.Ready(new Staged(b.policy(name).section(limits(hostile)).text(),
                    b.policy(name).section(limits(control)).text(), "resources." + hostile + " -> " + control,
                    action.script(b, loot), effect, b::clearOut, Staged.Chore.nothing(), Optional.empty()));
        });
    }

    private static Scenario fileSize() {
        String name = "res-file-size-ceiling";
        long limit = 1L << 20;
        return new Scenario(name, CapabilityDomain.RESOURCE, "write 4 MiB under a 1 MiB file-size ceiling", b -> {
            Path big = b.out().resolve("big");
            Staged.Observation effect = () -> Trees.size(big) > limit
                    ? Effect.happened("out/big has " + Trees.size(big) + " bytes")
                    : Effect.absent("out/big has " + Math.max(0, Trees.size(big)) + " bytes (ceiling " + limit + ")");
            return new Staging.Ready(new Staged(b.policy(name).section(limits("file_size: 1MiB")).text(),
                    b.policy(name).section(limits("file_size: 64MiB")).text(), "resources.file_size 1MiB -> 64MiB",
                    "head -c 4194304 /dev/zero > " + big, effect, b::clearOut, Staged.Chore.nothing(), Optional.empty()));
        });
    }
}
