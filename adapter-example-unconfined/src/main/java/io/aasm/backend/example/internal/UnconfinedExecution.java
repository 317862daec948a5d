package io.aasm.backend.example.internal;

import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.evidence.EnforcementEvidence;
import java.util.List;

/** A program started by ProcessBuilder, no boundary around it: nothing to show as evidence. */
final class UnconfinedExecution implements Execution {
    private final Process process;

    UnconfinedExecution(Process process) {
        this.process = process;
    }

    /**
     * Java reports a death by signal N as 128+N, indistinguishable from a program that exits 128+N
     * itself; both are the same shell status, so the status is passed on as an exit code.
     */
    @Override
    public ExitDisposition await() throws InterruptedException {
        int code = process.waitFor();
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        return new ExitDisposition.Exited(code);
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        if (!process.isAlive()) {
            return false;
        }
        if (request == TerminationRequest.IMMEDIATE) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            return true;
        }
        return process.toHandle().destroy();
    }

    @Override
    public EnforcementEvidence evidence() {
        return new EnforcementEvidence(ExampleUnconfinedBackend.ID, List.of());
    }
}
