package io.aasm.backend.sandlock.internal.lower;

import io.aasm.ports.policy.Scope;
import java.util.ArrayList;
import java.util.List;

/** Resource ceilings sandlock 0.8.6 can hold, and the ones it cannot. */
final class ResourceLowering {
    private ResourceLowering() {
    }

    static DomainLowering lower(Scope s) {
        if (!(s instanceof Scope.Limits l)) {
            return RequirementLowerer.mismatch(s);
        }
        List<String> missing = new ArrayList<>();
        if (l.maxCpuSeconds().isPresent()) {
            missing.add("cpu_seconds (sandlock's -c throttles CPU percentage; it has no CPU-time ceiling)");
        }
        if (l.maxFileSizeBytes().isPresent()) {
            missing.add("file_size (sandlock 0.8.6 has no RLIMIT_FSIZE flag)");
        }
        if (l.maxMemoryBytes().isPresent() && l.maxMemoryBytes().getAsLong() < 1024) {
            missing.add("memory below 1 KiB");
        }
        if (!missing.isEmpty()) {
            return new DomainLowering.Inexpressible("sandlock 0.8.6 cannot hold " + String.join(", ", missing));
        }
        List<String> flags = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        l.maxMemoryBytes().ifPresent(b -> {
            // Rounded down to whole KiB: never more memory than asked.
            flags.add("--max-memory=" + (b / 1024) + "K");
            steps.add("--max-memory=" + (b / 1024) + "K (supervisor: the allocating task is SIGKILLed beyond it)");
        });
        l.maxOpenFiles().ifPresent(n -> {
            flags.add("--max-open-files=" + n);
            steps.add("--max-open-files=" + n + " (RLIMIT_NOFILE, clamped to what sandlock inherited)");
        });
        // No --timeout: sandlock's own kills only its process group and hides the program's status (exit 124);
        // aasm's guard holds the wall clock instead, killing the whole tree exactly at the ceiling.
        l.maxWallClockSeconds().ifPresent(n -> steps.add("wall clock " + n + " s: aasm's guard kills the whole tree at"
                + " the ceiling (no sandlock flag)"));
        l.maxProcesses().ifPresent(n -> {
            flags.add("--max-processes=" + n);
            steps.add("--max-processes=" + n + " (peak concurrent processes)");
        });
        return new DomainLowering.Flags(flags, steps);
    }
}
