package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.harden.AuthorityDrop;
import io.aasm.backend.sandlock.internal.harden.ProgramFilter;
import io.aasm.backend.sandlock.internal.harden.ReadOnlyView;
import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.backend.sandlock.internal.lower.OwnPaths;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.lower.SandlockCommand;
import io.aasm.backend.sandlock.internal.supervise.Cgroups;
import io.aasm.backend.sandlock.internal.supervise.LaunchIds;
import io.aasm.backend.sandlock.internal.supervise.ProcessTable;
import io.aasm.backend.sandlock.internal.supervise.Runs;
import io.aasm.backend.sandlock.internal.supervise.SandlockRun;
import io.aasm.backend.sandlock.internal.supervise.SandlockState;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One launch run two ways through the real sandlock and the real guard: as the backend launches it
 * (prepare, spawn: the guard drops every capability, makes a read-only view when writes are stated, and
 * the program runs under aasm's filter) and as its control, the very same sandlock command line started
 * by the same guard with one of those additions left out. Without a sandlock executable the calling test
 * is "environment cannot host this check".
 */
final class HardeningPairs implements AutoCloseable {
    final SandlockBackend backend;
    private final Path sandlock;
    private final Path dir;
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final Runs runs;
    private final RequirementLowerer lowerer = new RequirementLowerer();

    HardeningPairs(Path dir) {
        this.dir = dir;
        this.backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"));
        this.sandlock = sandlockPath();
        LaunchIds ids = new LaunchIds(new ProcessTable(Path.of("/proc")));
        this.runs = Runs.embedded(dir.resolve("guard-cache"), new Runs.Places(ids, new Cgroups(Path.of("/sys"),
                Path.of("/proc"), ids), new SandlockState(Path.of("/dev/shm"), ids)), timers, 2000,
                AuthorityDrop.forThisProcess(Path.of("/proc")));
    }

    private static Path sandlockPath() {
        String bin = System.getenv("AA_SANDLOCK_BIN");
        if (bin != null && !bin.isEmpty()) {
            return Path.of(bin);
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, "sandlock"))) {
                return Path.of(d, "sandlock");
            }
        }
        throw new IllegalStateException("the backend found a sandlock this fixture cannot");
    }

    /** {@code /bin/sh -c script} launched by the backend; returns the execution, ended. */
    Execution launch(List<ControlRequirement> reqs, String script) throws Exception {
        ExecutionSpec spec = Fixtures.spec("/bin/sh", List.of("-c", script), reqs, Map.of());
        Execution e = backend.prepare(Fixtures.plan(spec)).spawn();
        e.await();
        return e;
    }

    /**
     * The control: the same sandlock command a launch of {@code reqs} gets, started by the guard, with the
     * capability drop ({@code drop}), aasm's filter ({@code filter}) and the read-only view ({@code view},
     * where writes are stated) each in or out. Returns the output.
     */
    String control(List<ControlRequirement> reqs, String script, boolean drop, boolean filter, boolean view)
            throws Exception {
        ExecutionSpec spec = Fixtures.spec("/bin/sh", List.of("-c", script), reqs, Map.of());
        List<DomainLowering.Flags> lowered = new ArrayList<>();
        reqs.forEach(r -> lowered.add((DomainLowering.Flags) lowerer.lower(r)));
        List<String> writes = lowered.stream().flatMap(f -> f.flags().stream()).filter(x -> x.startsWith("--fs-write="))
                .map(x -> x.substring(11)).toList();
        List<String> guardOptions = view ? ReadOnlyView.options(reqs.stream().anyMatch(r -> r.domain()
                == CapabilityDomain.FILESYSTEM_WRITE), writes, runs.stateRoot(), Optional.of(runs.authority()))
                .orElse(List.of()) : List.of();
        Optional<SandlockCommand.Shim> shim = Optional.empty();
        if (filter) {
            ProgramFilter.Concerns c = new ProgramFilter.Concerns(
                    reqs.stream().anyMatch(r -> r.domain() == CapabilityDomain.FILESYSTEM_READ));
            shim = Optional.of(new SandlockCommand.Shim(runs.actor().orElseThrow(), ProgramFilter.hex(ProgramFilter
                    .build(ProgramFilter.hostArch(), c).orElseThrow())));
        }
        Optional<String> name = runs.newSandboxName();
        SandlockCommand.Built b = SandlockCommand.build(sandlock, spec, lowered, name, shim, OwnPaths.none());
        Path out = dir.resolve("control-" + UUID.randomUUID());
        SandlockRun r = runs.start(b.argv(), name, Map.of(), Path.of("/"), Runs.Stdio.toFile(out),
                OptionalLong.of(30_000), drop, guardOptions);
        r.waitFor();
        return Files.readString(out);
    }

    /** The test actor (hardening-actor.c), compiled with the system cc into {@code dir}/actor/. */
    Path actor() throws IOException, InterruptedException {
        Path bin = Files.createDirectories(dir.resolve("actor")).resolve("hardening-actor");
        if (Files.isExecutable(bin)) {
            return bin;
        }
        Path src = bin.resolveSibling("hardening-actor.c");
        try (InputStream in = HardeningPairs.class.getClassLoader().getResourceAsStream("hardening-actor.c")) {
            Files.copy(in, src);
        }
        Process cc = new ProcessBuilder("cc", "-O2", "-o", bin.toString(), src.toString()).inheritIO().start();
        if (!cc.waitFor(120, TimeUnit.SECONDS) || cc.exitValue() != 0) {
            throw new IOException("cannot compile the test actor with cc");
        }
        return bin;
    }

    @Override
    public void close() {
        backend.deactivate();
        timers.shutdownNow();
    }
}
