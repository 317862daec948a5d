package io.aasm.backend.sandlock.internal.lower;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;

/**
 * Builds {@code sandlock run <options> -- program args...}. Options are only {@code --flag=value}
 * tokens from the allowed set (so no selector can turn into a flag); the program and its arguments
 * come after {@code --}. Environment values never appear: the guard passes them as sandlock's own
 * environment. Domains the spec does not state are opened again ({@link AbsentLowering}).
 */
public final class SandlockCommand {
    /** The descriptor on which the guard reads sandlock's status line. */
    public static final int STATUS_FD = 3;

    /** The argv to execute and the options part alone (for checks and evidence). */
    public record Built(List<String> argv, List<String> options) {
        public Built {
            argv = List.copyOf(argv);
            options = List.copyOf(options);
        }
    }

    /**
     * The program's side of the launch: sandlock runs {@code guard exec <filter> [canary:...] -- program args}
     * instead of the program, and the guard runs the canaries, installs aasm's seccomp filter and then
     * executes the program in place.
     */
    public record Shim(Path guard, String filterHex, List<String> canaries) {
        public Shim {
            canaries = List.copyOf(canaries);
            if (!guard.isAbsolute() || !filterHex.matches("([0-9a-f]{16})+")
                    || canaries.stream().anyMatch(c -> !c.startsWith("canary:") || c.indexOf('\n') >= 0)) {
                throw new IllegalArgumentException("a shim is an absolute guard path, a hex BPF program and canary words");
            }
        }

        public Shim(Path guard, String filterHex) {
            this(guard, filterHex, List.of());
        }

        public Shim withCanaries(List<String> words) {
            return new Shim(guard, filterHex, words);
        }
    }

    private SandlockCommand() {
    }

    /**
     * @param lowered the flags of every stated requirement to install (inexpressible ones already left out)
     */
    public static Built build(Path sandlock, ExecutionSpec spec, List<DomainLowering.Flags> lowered) {
        return build(sandlock, spec, lowered, java.util.Optional.empty());
    }

    /** @param sandboxName the launch's own sandbox name (see SandlockState), when it has one */
    public static Built build(Path sandlock, ExecutionSpec spec, List<DomainLowering.Flags> lowered,
                              java.util.Optional<String> sandboxName) {
        return build(sandlock, spec, lowered, sandboxName, java.util.Optional.empty());
    }

    /** @param shim when present, the program runs under aasm's filter (the guard file is granted read) */
    public static Built build(Path sandlock, ExecutionSpec spec, List<DomainLowering.Flags> lowered,
                              java.util.Optional<String> sandboxName, java.util.Optional<Shim> shim) {
        return build(sandlock, spec, lowered, sandboxName, shim, OwnPaths.of(spec.protectedPaths()));
    }

    /** @param own aasm's paths (and the backend's own state), which writes opened for unstated domains avoid */
    public static Built build(Path sandlock, ExecutionSpec spec, List<DomainLowering.Flags> lowered,
                              java.util.Optional<String> sandboxName, java.util.Optional<Shim> shim, OwnPaths own) {
        List<String> all = new ArrayList<>();
        lowered.forEach(f -> all.addAll(f.flags()));
        AbsentLowering.lower(spec.requirements(), own).forEach(a -> all.addAll(a.flags()));
        boolean readsStated = spec.requirements().stream().anyMatch(r -> r.domain() == CapabilityDomain.FILESYSTEM_READ);
        // Stated reads may not cover aasm's cache: the shim itself must be executable in the sandbox.
        shim.filter(x -> readsStated).ifPresent(x -> all.add("--fs-read=" + x.guard()));
        LinkedHashSet<String> options = new LinkedHashSet<>();
        OptionalLong maxProcesses = OptionalLong.empty();
        for (String flag : all) {
            if (SandlockFlags.nameOf(flag).equals("--max-processes")) {
                // Two domains may both cap processes; the tighter ceiling wins, once.
                long value = Long.parseLong(flag.substring("--max-processes=".length()));
                maxProcesses = OptionalLong.of(Math.min(value, maxProcesses.orElse(Long.MAX_VALUE)));
            } else {
                options.add(flag);
            }
        }
        maxProcesses.ifPresent(v -> options.add("--max-processes=" + v));
        // The CLI's effective default is commit, not the documented abort (contract §6): always explicit.
        options.add("--on-error=abort");
        // sandlock exits 1 for every signal death; its status line on the guard's descriptor tells which.
        options.add("--status-fd=" + STATUS_FD);
        if (spec.environment().isEmpty()) {
            options.add("--clean-env");
        }
        options.add("--cwd=" + spec.workingDirectory());
        sandboxName.ifPresent(n -> options.add("--name=" + n));
        List<String> opts = List.copyOf(options);
        SandlockFlags.violation(opts).ifPresent(v -> {
            throw new IllegalStateException("refusing to build a sandlock command line: " + v);
        });
        List<String> argv = new ArrayList<>();
        argv.add(sandlock.toString());
        argv.add("run");
        argv.addAll(opts);
        argv.add("--");
        shim.ifPresent(x -> {
            argv.addAll(List.of(x.guard().toString(), "exec", x.filterHex()));
            argv.addAll(x.canaries());
            argv.add("--");
        });
        argv.add(spec.program());
        argv.addAll(spec.args());
        return new Built(argv, opts);
    }
}
