package io.aasm.cli.internal;

import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.conformance.ConformanceSuite;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.report.ReportRenderer;
import java.util.Optional;

/** One command invocation: its I/O and the way to the services the commands ask. */
final class Invocation {
    private final CliIo io;
    private final ServiceGate<IsolationKernel> kernel;
    private final ServiceGate<ConformanceSuite> suite;
    private final ReportFormats formats;
    private final ServiceGate<AuditLog> audit;

    Invocation(CliIo io, ServiceGate<IsolationKernel> kernel, ServiceGate<ConformanceSuite> suite,
            ReportFormats formats) {
        this(io, kernel, suite, formats, new ServiceGate<>());
    }

    Invocation(CliIo io, ServiceGate<IsolationKernel> kernel, ServiceGate<ConformanceSuite> suite,
            ReportFormats formats, ServiceGate<AuditLog> audit) {
        this.io = io;
        this.kernel = kernel;
        this.suite = suite;
        this.formats = formats;
        this.audit = audit;
    }

    CliIo io() {
        return io;
    }

    /** Waits for the kernel service; its absence is a failure before start, with what the framework logged. */
    IsolationKernel kernel() {
        return await(kernel, "the isolation kernel service", "is the kernel bundle in bundle/?");
    }

    /** Waits for the conformance suite (bundle/conformance.jar), like {@link #kernel()}. */
    ConformanceSuite conformance() {
        return await(suite, "the conformance suite service", "is bundle/conformance.jar installed?");
    }

    /** Waits for the audit log (bundle/adapter-audit-log.jar), like {@link #kernel()}. */
    AuditLog auditLog() {
        return await(audit, "the audit log service", "is bundle/adapter-audit-log.jar installed?");
    }

    /** The report formats installed in this framework now (the {@code --report} choices). */
    ReportFormats reportFormats() {
        return formats;
    }

    ReportRenderer renderer(String format) {
        return kernel().renderer(format).orElseThrow(() -> new CliFailure(ExitCodes.FAILED_BEFORE_START,
                "no `" + format + "` report renderer is installed (" + formats.describe() + ")"));
    }

    private <T> T await(ServiceGate<T> gate, String what, String hint) {
        long timeout = io.face().serviceTimeoutMillis();
        Optional<T> found;
        try {
            found = gate.await(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "interrupted while waiting for " + what);
        }
        return found.orElseThrow(() -> {
            StringBuilder msg = new StringBuilder(what + " did not appear within " + timeout
                    + " ms; nothing was launched (" + hint + ")");
            io.frameworkErrors().forEach(e -> msg.append("\n  - ").append(e));
            return new CliFailure(ExitCodes.FAILED_BEFORE_START, msg.toString());
        });
    }
}
