package io.aasm.backend.vm.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.LaunchPosture;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RequirementOutcome;
import java.nio.file.Path;
import java.util.List;

/**
 * Launches through the backend's own plan, prepare and spawn (what the kernel does after negotiation, every
 * requirement enforced), with stdio on files the test opens as raw descriptors.
 */
final class Spawned {
    interface LibC extends Library {
        int open(String path, int flags, int mode);

        int close(int fd);
    }

    static final LibC C = Native.load("c", LibC.class);
    static final int O_RDONLY = 0;
    static final int O_WRONLY_CREAT_TRUNC = 01 | 0100 | 01000;

    private Spawned() {
    }

    static EnforcementPlan enforced(QemuVmBackend b, ExecutionSpec spec) {
        BackendPlan bp = b.plan(spec);
        List<PlannedRequirement> planned = spec.requirements().stream().map(r -> new PlannedRequirement(r,
                new RequirementOutcome.Enforced(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE),
                bp.steps(r))).toList();
        return new EnforcementPlan(b.identity(), spec, planned, LaunchPosture.READY, bp);
    }

    static Execution spawn(QemuVmBackend b, ExecutionSpec spec) throws LaunchException {
        try (PreparedLaunch p = b.prepare(enforced(b, spec))) {
            return p.spawn();
        }
    }

    /** Descriptors for stdin (read from {@code in}) and stdout/stderr (written to the two files). */
    static int[] files(Path in, Path out, Path err) {
        return new int[] {C.open(in.toString(), O_RDONLY, 0), C.open(out.toString(), O_WRONLY_CREAT_TRUNC, 0644),
            C.open(err.toString(), O_WRONLY_CREAT_TRUNC, 0644)};
    }

    static void close(int[] fds) {
        for (int fd : fds) {
            C.close(fd);
        }
    }

    static boolean stated(ExecutionSpec spec, CapabilityDomain d) {
        return spec.requirements().stream().anyMatch(r -> r.domain() == d);
    }
}
