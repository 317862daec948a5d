package io.aasm.backend.container.internal.lower;

import io.aasm.backend.container.internal.engine.EngineFacts;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.util.Optional;

/** One fact about the engine (or this bundle) a mechanism depends on, checked against what the engine said. */
public enum Need {
    SECCOMP("the engine applies seccomp profiles to containers (/info SecurityOptions lists name=seccomp)"),
    SYSCALL_TABLE("a syscall table for this architecture in the bundle (built from the C library's headers)"),
    MEMORY("the engine limits memory and swap (/info MemoryLimit and SwapLimit)"),
    PIDS("the engine limits the number of processes (/info PidsLimit)");

    private final String requirement;

    Need(String requirement) {
        this.requirement = requirement;
    }

    public String requirement() {
        return requirement;
    }

    public PrerequisiteStatus check(EngineFacts f, Optional<SyscallTable> table) {
        return switch (this) {
            case SECCOMP -> f.seccomp() ? new PrerequisiteStatus.Satisfied("/info SecurityOptions: " + f.securityOptions())
                    : new PrerequisiteStatus.Unsatisfied("the engine reports no seccomp support (SecurityOptions "
                    + f.securityOptions() + "); run an engine built with seccomp on a kernel with CONFIG_SECCOMP_FILTER");
            case SYSCALL_TABLE -> table.isPresent() ? new PrerequisiteStatus.Satisfied(table.get().numbers().size()
                    + " syscalls of " + table.get().arch() + " up to number " + table.get().highest())
                    : new PrerequisiteStatus.Unsatisfied("no syscall table for " + System.getProperty("os.arch")
                    + " in this bundle (x86_64 and aarch64 builds carry one)");
            case MEMORY -> f.memoryLimit() && f.swapLimit() ? new PrerequisiteStatus.Satisfied("/info MemoryLimit and "
                    + "SwapLimit are true") : new PrerequisiteStatus.Unsatisfied("the engine reports MemoryLimit="
                    + f.memoryLimit() + " SwapLimit=" + f.swapLimit() + "; enable the memory controller (and swap "
                    + "accounting, cgroup v1: swapaccount=1) for the engine");
            case PIDS -> f.pidsLimit() ? new PrerequisiteStatus.Satisfied("/info PidsLimit is true")
                    : new PrerequisiteStatus.Unsatisfied("the engine reports PidsLimit=false; enable the pids "
                    + "controller for the engine");
        };
    }
}
