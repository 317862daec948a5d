package io.aasm.cli.internal;

import io.aasm.ports.trace.LaunchStages;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.report.IsolationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One {@code run exec}: builds the request, asks the kernel to decide, then either previews
 * ({@code --dry-run}), prints the refusal, or launches and waits. Decisions are the kernel's; this
 * class only routes them to the right stream and exit status.
 */
final class ExecRun {
    private final Invocation inv;
    private final ExecCommand cmd;
    private final CliIo io;
    /** Open for the whole run (see {@link #run()}). */
    private ReportFile reportFile;

    ExecRun(Invocation inv, ExecCommand cmd) {
        this.inv = inv;
        this.cmd = cmd;
        this.io = inv.io();
    }

    int run() {
        LaunchStages.mark("command_parse");
        requireReportFormat();
        Path workdir = workdir();
        Path policy = policy();
        // opened before anything runs: the path means what it meant when the user gave it
        try (ReportFile opened = ReportFile.open(io, cmd.reportFile)) {
            reportFile = opened;
            return decideAndRun(workdir, policy);
        }
    }

    /**
     * A report that could not be rendered after the run would cost the caller the report of a program
     * that ran, so the format is checked first. An explicit --report was checked while parsing; this
     * catches the default when no renderer for it is installed.
     */
    private void requireReportFormat() {
        if (cmd.reportFile != null && !inv.reportFormats().has(cmd.report)) {
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "no `" + cmd.report + "` report renderer is installed ("
                    + inv.reportFormats().describe() + "); nothing was launched");
        }
    }

    private int decideAndRun(Path workdir, Path policy) {
        IsolationKernel kernel = inv.kernel();
        LaunchRequest request = new LaunchRequest(Optional.ofNullable(cmd.isolation), Optional.ofNullable(cmd.backend),
                Optional.of(policy.toString()), cmd.program, cmd.args, workdir.toString(), identity(), io.env(),
                io.stdio(), !cmd.noProxy, cmd.verify);
        LaunchDecision decision = kernel.decide(request);
        LaunchStages.mark("decided");
        if (decision instanceof LaunchDecision.PolicyRejected rejected) {
            return policyRejected(rejected);
        }
        if (cmd.dryRun) {
            int status = new DryRunPreview(inv, cmd, policy, isDefaultPolicy()).print(decision);
            return writeReport(DryRunPreview.reportOf(decision)) ? status : ExitCodes.FAILED_BEFORE_START;
        }
        if (decision instanceof LaunchDecision.Refused refused) {
            io.err().println("aasm: " + refused.message());
            RefusalAdvice.of(refused.report()).forEach(a -> io.err().println("aasm: hint: " + a));
            writeReport(refused.report());
            summary(refused.report(), ExitCodes.FAILED_BEFORE_START);
            return ExitCodes.FAILED_BEFORE_START;
        }
        return launch(kernel, decision, DryRunPreview.reportOf(decision));
    }

    private int launch(IsolationKernel kernel, LaunchDecision decision, IsolationReport preLaunch) {
        int early = io.firstSignal().get();
        if (early != 0) {
            io.err().println("aasm: signal " + early + " received before launch; nothing was launched");
            return 128 + early;
        }
        LaunchSession session;
        try {
            session = kernel.launch(decision);
        } catch (LaunchException e) {
            int status = statusOf(e.kind());
            io.err().println("aasm: " + e.getMessage());
            status = writeReport(preLaunch) ? status : ExitCodes.FAILED_BEFORE_START;
            io.err().println("aasm: " + PostureLine.notStarted(preLaunch, status));
            return status;
        }
        SignalForwarder.install(io, session);
        ExitDisposition disposition;
        try {
            disposition = session.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            session.terminate(TerminationRequest.IMMEDIATE);
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "interrupted while waiting for the program");
        } finally {
            io.onSignal().set(null);
        }
        if (disposition instanceof ExitDisposition.NotStarted ns) {
            io.err().println("aasm: " + ns.detail());
        }
        IsolationReport post = session.postRunReport();
        int status = disposition.shellStatus();
        if (!writeReport(post)) {
            status = statusWithoutReport(disposition);
        }
        LaunchStages.mark("report_written");
        Optional<String> auditProblem = session.auditProblem();
        if (auditProblem.isPresent()) {
            // The launch ran but left no record: a success must not read as a fully accounted one.
            io.err().println("aasm: the launch was not recorded in the audit log: " + auditProblem.get());
            status = statusWithoutReport(disposition);
        }
        io.err().println("aasm: " + PostureLine.of(post, status)
                + session.auditRecord().map(id -> " audit=" + id).orElse(""));
        LaunchStages.mark("posture_line");
        return status;
    }

    /**
     * The program did not run: 125, like any other failure before start. It ran: its own non-zero status
     * stays (it is the more important news); a success becomes {@link ExitCodes#REPORT_NOT_WRITTEN}, so
     * that a caller who asked for a report (or relies on the audit log) never reads "0" without one.
     */
    private static int statusWithoutReport(ExitDisposition disposition) {
        if (disposition instanceof ExitDisposition.NotStarted) {
            return ExitCodes.FAILED_BEFORE_START;
        }
        int status = disposition.shellStatus();
        return status == 0 ? ExitCodes.REPORT_NOT_WRITTEN : status;
    }

    private int policyRejected(LaunchDecision.PolicyRejected rejected) {
        io.err().println("aasm: the policy " + rejected.origin() + " was rejected; nothing was launched:");
        for (PolicyProblem p : rejected.problems()) {
            io.err().println("  " + p.render());
        }
        return ExitCodes.FAILED_BEFORE_START;
    }

    private static int statusOf(LaunchFailureKind kind) {
        return switch (kind) {
            case NOT_FOUND -> ExitCodes.NOT_FOUND;
            case NOT_EXECUTABLE -> ExitCodes.NOT_EXECUTABLE;
            case BOUNDARY_REFUSED, BACKEND_ERROR -> ExitCodes.FAILED_BEFORE_START;
        };
    }

    private Path workdir() {
        if (cmd.workdir == null) {
            return Path.of(io.cwd());
        }
        Path dir = io.resolve(cmd.workdir);
        if (!Files.isDirectory(dir)) {
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "--workdir " + cmd.workdir
                    + " is not a directory; nothing was launched");
        }
        return dir;
    }

    private Path policy() {
        if (cmd.policy != null) {
            return io.resolve(cmd.policy);
        }
        return io.defaultPolicy().orElseThrow(() -> new CliFailure(ExitCodes.FAILED_BEFORE_START,
                "no --policy given and this aasm has no distribution home with conf/default-policy.yaml;"
                        + " nothing was launched"));
    }

    boolean isDefaultPolicy() {
        return cmd.policy == null;
    }

    private IdentityRef identity() {
        return cmd.agentId == null ? IdentityRef.anonymous() : new IdentityRef(cmd.agentId, Optional.empty(), List.of());
    }

    /** False when a report was asked for and could not be written (the message is already on stderr). */
    private boolean writeReport(IsolationReport report) {
        return reportFile.write(inv, cmd.report, report);
    }

    static String withNewline(String s) {
        return s.endsWith("\n") ? s : s + "\n";
    }

    private void summary(IsolationReport report, int status) {
        io.err().println("aasm: " + PostureLine.of(report, status));
    }
}
