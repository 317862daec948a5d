package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.backend.sandlock.internal.guard.GuardBinary;
import io.aasm.backend.sandlock.internal.guard.GuardProcess;
import io.aasm.backend.sandlock.internal.harden.AuthorityDrop;
import io.aasm.support.digest.DigestCache;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Starts runs under a verified guard, each in a fresh cgroup where one can be created, after
 * reclaiming the groups that killed predecessors left behind. Shared by launches and probes.
 */
public final class Runs {
    /** Where the program's standard streams go. */
    public record Stdio(ProcessBuilder.Redirect in, ProcessBuilder.Redirect out, ProcessBuilder.Redirect err) {
        public static Stdio inherit() {
            return new Stdio(ProcessBuilder.Redirect.INHERIT, ProcessBuilder.Redirect.INHERIT,
                    ProcessBuilder.Redirect.INHERIT);
        }

        /** Output and errors to one file, no input: for probes. */
        public static Stdio toFile(Path file) {
            return new Stdio(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")),
                    ProcessBuilder.Redirect.to(file.toFile()), ProcessBuilder.Redirect.appendTo(file.toFile()));
        }
    }

    /** Where launches leave traces a killed predecessor may have left: its cgroups, sandlock's state dirs. */
    public record Places(LaunchIds ids, Cgroups cgroups, SandlockState state) {
    }

    private final Optional<GuardBinary> guard;
    private final String guardMissing;
    private final Places places;
    private final ScheduledExecutorService timers;
    private final long graceMillis;
    private final AuthorityDrop authority;

    public Runs(Optional<GuardBinary> guard, String guardMissing, Places places, ScheduledExecutorService timers,
                long graceMillis, AuthorityDrop authority) {
        this.guard = guard;
        this.guardMissing = guardMissing;
        this.places = places;
        this.timers = timers;
        this.graceMillis = graceMillis;
        this.authority = authority;
    }

    /** Runs under the guard this bundle carries (none, with the reason, on a platform it was not built for). */
    public static Runs embedded(Path guardCacheDir, Places places, ScheduledExecutorService timers,
                                long graceMillis, AuthorityDrop authority) {
        return embedded(guardCacheDir, Optional.empty(), places, timers, graceMillis, authority);
    }

    /** As above; {@code digests}: where the extracted guard's digest is remembered under its file identity. */
    public static Runs embedded(Path guardCacheDir, Optional<DigestCache> digests, Places places,
                                ScheduledExecutorService timers, long graceMillis, AuthorityDrop authority) {
        try {
            return new Runs(Optional.of(GuardBinary.embedded(guardCacheDir, digests)), "", places, timers, graceMillis,
                    authority);
        } catch (IOException e) {
            return new Runs(Optional.empty(), "the sandlock backend's guard is missing from this bundle: "
                    + e.getMessage(), places, timers, graceMillis, authority);
        }
    }

    /** How the guard empties the tree's capability sets for every run (but a probe's control). */
    public AuthorityDrop authority() {
        return authority;
    }

    /** Removes what launches of killed predecessors left behind (their guard killed with them). */
    public void reclaim() {
        places.cgroups().reclaim();
        places.state().reclaim();
    }

    /** A sandbox name for a new launch ({@code aasm-<launch id>}); empty if this JVM cannot name itself. */
    public Optional<String> newSandboxName() {
        return places.state().newName();
    }

    /** The guard's digest (part of the probe cache key), or "none". */
    public String guardDigest() {
        return guard.map(GuardBinary::sha256).orElse("none");
    }

    /** The verified guard executable, whose {@code probe} actions the IPC probe runs; empty without one. */
    public Optional<Path> actor() {
        try {
            return guard.isPresent() ? Optional.of(guard.get().verified()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Why no run can start, when the bundle carries no guard for this platform. */
    public Optional<String> unavailable() {
        return guard.isPresent() ? Optional.empty() : Optional.of(guardMissing);
    }

    /** Sandlock's per-user state folder (created if missing), which a read-only view keeps writable. */
    public Path stateRoot() {
        return places.state().ensureRoot();
    }

    public Cgroups cgroups() {
        return places.cgroups();
    }

    /**
     * Starts {@code argv} (sandlock's, carrying {@code --name=sandboxName}, or any absolute command for
     * self-checks) with exactly {@code env}. The guard's binary is verified against its digest
     * immediately before this start; the cgroup shares the sandbox name's launch id.
     */
    public SandlockRun start(List<String> argv, Optional<String> sandboxName, Map<String, String> env, Path cwd,
                             Stdio stdio, OptionalLong deadlineMillis) throws IOException {
        return start(argv, sandboxName, env, cwd, stdio, deadlineMillis, true);
    }

    /** As above; {@code dropAuthority} false only for a probe's control, which shows what the drop removes. */
    public SandlockRun start(List<String> argv, Optional<String> sandboxName, Map<String, String> env, Path cwd,
                             Stdio stdio, OptionalLong deadlineMillis, boolean dropAuthority) throws IOException {
        return start(argv, sandboxName, env, cwd, stdio, deadlineMillis, dropAuthority, List.of());
    }

    /** As above; {@code guardOptions}: further options for the guard, such as a read-only view's. */
    public SandlockRun start(List<String> argv, Optional<String> sandboxName, Map<String, String> env, Path cwd,
                             Stdio stdio, OptionalLong deadlineMillis, boolean dropAuthority, List<String> guardOptions)
            throws IOException {
        if (guard.isEmpty()) {
            throw new IOException(guardMissing);
        }
        Path binary = guard.get().verified();
        reclaim();
        Optional<String> id = sandboxName.map(n -> n.substring(SandlockState.PREFIX.length()))
                .or(() -> places.ids().next());
        Optional<Path> group = id.flatMap(places.cgroups()::create);
        Optional<Path> state = sandboxName.map(places.state()::dirOf);
        return SandlockRun.start(new GuardProcess.Start(binary, group, state,
                dropAuthority ? Optional.of(authority) : Optional.empty(), guardOptions, argv, env, cwd, stdio.in(),
                stdio.out(), stdio.err()), deadlineMillis, timers, graceMillis);
    }
}
