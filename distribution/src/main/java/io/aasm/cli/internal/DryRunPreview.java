package io.aasm.cli.internal;

import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportRenderer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code run exec --dry-run}: the sections of a preview, in the reference order. Executes nothing. A
 * refusal is shown as {@code warning:} lines on stderr and the preview goes on (exit 0), so an
 * operator sees the whole picture of what a live run would refuse. The two report sections come from
 * the {@code text} and {@code kv} renderers, which live in optional bundles: a section whose renderer is
 * not installed says so in place, and the rest of the preview is still printed (a preview that needs no
 * report file should not fail for want of a report format it was not asked for).
 */
final class DryRunPreview {
    static final String TEXT_HEADER = "--- execution isolation ---";
    static final String KV_HEADER = "--- execution isolation (machine-readable) ---";

    private final Invocation inv;
    private final ExecCommand cmd;
    private final Path policy;
    private final boolean defaultPolicy;

    DryRunPreview(Invocation inv, ExecCommand cmd, Path policy, boolean defaultPolicy) {
        this.inv = inv;
        this.cmd = cmd;
        this.policy = policy;
        this.defaultPolicy = defaultPolicy;
    }

    int print(LaunchDecision decision) {
        PrintStream out = inv.io().out();
        IsolationReport report = reportOf(decision);
        if (decision instanceof LaunchDecision.Refused refused) {
            for (String line : refused.message().split("\n")) {
                inv.io().err().println("warning: " + line);
            }
            RefusalAdvice.of(refused.report()).forEach(a -> inv.io().err().println("warning: hint: " + a));
            inv.io().err().println("warning: a live aasm run with these flags would refuse to launch.");
        }
        out.println("--- aasm run dry-run ---");
        out.println("agent_id: " + report.identity().agentId());
        out.println("executes: nothing (preview only)");
        ProtectionSection.print(out, decision, cmd.noProxy);
        out.println("--- policy ---");
        out.println("policy: " + policy + (defaultPolicy ? " (distribution default; pass --policy FILE to choose another)" : ""));
        section(out, TEXT_HEADER, "text", report);
        section(out, KV_HEADER, "kv", report);
        out.println("--- launch command ---");
        out.println("program: " + cmd.program);
        out.println("argument_count: " + cmd.args.size());
        return ExitCodes.OK;
    }

    static IsolationReport reportOf(LaunchDecision decision) {
        if (decision instanceof LaunchDecision.Refused r) {
            return r.report();
        }
        if (decision instanceof LaunchDecision.Confined c) {
            return c.report();
        }
        if (decision instanceof LaunchDecision.Unconfined u) {
            return u.report();
        }
        throw new IllegalArgumentException("a rejected policy has no report");
    }

    /** Renderers may or may not print their own section header; print it exactly once. */
    private void section(PrintStream out, String header, String format, IsolationReport report) {
        Optional<ReportRenderer> renderer = inv.kernel().renderer(format);
        if (renderer.isEmpty()) {
            out.println(header);
            out.println("not shown: no `" + format + "` report renderer is installed ("
                    + inv.reportFormats().describe() + ")");
            return;
        }
        String body = renderer.get().render(report);
        if (!body.startsWith(header)) {
            out.println(header);
        }
        out.print(ExecRun.withNewline(body));
    }
}
