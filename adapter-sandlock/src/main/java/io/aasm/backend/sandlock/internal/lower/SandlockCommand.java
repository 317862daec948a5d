package io.aasm.backend.sandlock.internal.lower;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.policy.ControlRequirement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;

/**
 * Builds {@code sandlock run <options> -- program args...}. Options are only {@code --flag=value}
 * tokens from the allowed set (so no selector can turn into a flag); the program and its arguments
 * come after {@code --}. Environment values never appear: the launcher passes them as sandlock's own
 * environment.
 */
public final class SandlockCommand {
    /** The argv to execute and the options part alone (for checks and evidence). */
    public record Built(List<String> argv, List<String> options) {
        public Built {
            argv = List.copyOf(argv);
            options = List.copyOf(options);
        }
    }

    private SandlockCommand() {
    }

    /**
     * @param lowered the flags of every requirement to install (inexpressible ones already left out)
     */
    public static Built build(Path sandlock, ExecutionSpec spec, List<DomainLowering.Flags> lowered) {
        LinkedHashSet<String> options = new LinkedHashSet<>();
        OptionalLong maxProcesses = OptionalLong.empty();
        OptionalLong timeout = OptionalLong.empty();
        for (DomainLowering.Flags f : lowered) {
            for (String flag : f.flags()) {
                String name = SandlockFlags.nameOf(flag);
                long value;
                switch (name) {
                    // Two domains may both cap processes or time; the tighter ceiling wins, once.
                    case "--max-processes" -> {
                        value = Long.parseLong(flag.substring(name.length() + 1));
                        maxProcesses = OptionalLong.of(Math.min(value, maxProcesses.orElse(Long.MAX_VALUE)));
                    }
                    case "--timeout" -> {
                        value = Long.parseLong(flag.substring(name.length() + 1));
                        timeout = OptionalLong.of(Math.min(value, timeout.orElse(Long.MAX_VALUE)));
                    }
                    default -> options.add(flag);
                }
            }
        }
        maxProcesses.ifPresent(v -> options.add("--max-processes=" + v));
        timeout.ifPresent(v -> options.add("--timeout=" + v));
        // The CLI's effective default is commit, not the documented abort (contract §6): always explicit.
        options.add("--on-error=abort");
        if (spec.environment().isEmpty()) {
            options.add("--clean-env");
        }
        options.add("--cwd=" + spec.workingDirectory());
        List<String> opts = List.copyOf(options);
        SandlockFlags.violation(opts).ifPresent(v -> {
            throw new IllegalStateException("refusing to build a sandlock command line: " + v);
        });
        List<String> argv = new ArrayList<>();
        argv.add(sandlock.toString());
        argv.add("run");
        argv.addAll(opts);
        argv.add("--");
        argv.add(spec.program());
        argv.addAll(spec.args());
        return new Built(argv, opts);
    }
}
