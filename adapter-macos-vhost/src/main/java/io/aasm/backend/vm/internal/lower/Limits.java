package io.aasm.backend.vm.internal.lower;

import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.ports.policy.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** The resource domain in the guest: cgroup ceilings, rlimits, and the wall clock the host keeps. */
record Limits(List<GuestPlan.Rlimit> rlimits, OptionalLong memory, OptionalLong pids, OptionalLong wallClock,
              List<String> steps) {

    static Limits of(Scope scope, OptionalLong processCeiling) {
        List<GuestPlan.Rlimit> r = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        OptionalLong memory = OptionalLong.empty();
        OptionalLong pids = processCeiling;
        OptionalLong wall = OptionalLong.empty();
        if (scope instanceof Scope.Limits l) {
            l.maxCpuSeconds().ifPresent(v -> {
                r.add(new GuestPlan.Rlimit(VmLowerer.RLIMIT_CPU, v, v));
                steps.add("RLIMIT_CPU " + v + " s");
            });
            l.maxOpenFiles().ifPresent(v -> {
                r.add(new GuestPlan.Rlimit(VmLowerer.RLIMIT_NOFILE, v, v));
                steps.add("RLIMIT_NOFILE " + v);
            });
            l.maxFileSizeBytes().ifPresent(v -> {
                r.add(new GuestPlan.Rlimit(VmLowerer.RLIMIT_FSIZE, v, v));
                steps.add("RLIMIT_FSIZE " + v + " bytes");
            });
            if (l.maxMemoryBytes().isPresent()) {
                memory = l.maxMemoryBytes();
                steps.add("memory.max " + memory.getAsLong() + " bytes on the tree's cgroup in the guest, no swap");
            }
            if (l.maxProcesses().isPresent()) {
                long v = l.maxProcesses().getAsLong();
                pids = OptionalLong.of(pids.isPresent() ? Math.min(pids.getAsLong(), v) : v);
                steps.add("pids.max " + pids.getAsLong() + " on the tree's cgroup in the guest");
            }
            if (l.maxWallClockSeconds().isPresent()) {
                wall = l.maxWallClockSeconds();
                steps.add("wall clock " + wall.getAsLong() + " s: the host kills the VM");
            }
        }
        return new Limits(r, memory, pids, wall, steps);
    }
}
