package io.aasm.cli.internal;

import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.report.ReportRenderer;

/** One command invocation: its I/O and the way to the kernel. */
final class Invocation {
    private final CliIo io;
    private final KernelGate gate;
    private final ReportFormats formats;
    private final long kernelTimeoutMillis;

    Invocation(CliIo io, KernelGate gate, ReportFormats formats, long kernelTimeoutMillis) {
        this.io = io;
        this.gate = gate;
        this.formats = formats;
        this.kernelTimeoutMillis = kernelTimeoutMillis;
    }

    CliIo io() {
        return io;
    }

    /** Waits for the kernel service; its absence is a failure before start, with what the framework logged. */
    IsolationKernel kernel() {
        try {
            return gate.await(kernelTimeoutMillis).orElseThrow(() -> {
                StringBuilder msg = new StringBuilder("the isolation kernel service did not appear within "
                        + kernelTimeoutMillis + " ms; nothing was launched (is the kernel bundle in bundle/?)");
                io.frameworkErrors().forEach(e -> msg.append("\n  - ").append(e));
                return new CliFailure(ExitCodes.FAILED_BEFORE_START, msg.toString());
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "interrupted while waiting for the isolation kernel");
        }
    }

    /** The report formats installed in this framework now (the {@code --report} choices). */
    ReportFormats reportFormats() {
        return formats;
    }

    ReportRenderer renderer(String format) {
        return kernel().renderer(format).orElseThrow(() -> new CliFailure(ExitCodes.FAILED_BEFORE_START,
                "no `" + format + "` report renderer is installed (" + formats.describe() + ")"));
    }
}
