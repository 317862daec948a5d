package io.aasm.cli.internal;

import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.report.IsolationReport;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code run exec --dry-run}: the sections of a preview, in the reference order. Executes nothing. A
 * refusal is shown as {@code warning:} lines on stderr and the preview goes on (exit 0), so an
 * operator sees the whole picture of what a live run would refuse.
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
            inv.io().err().println("warning: a live aasm run with these flags would refuse to launch.");
        }
        out.println("--- aasm run dry-run ---");
        out.println("agent_id: " + report.identity().agentId());
        out.println("executes: nothing (preview only)");
        ProtectionSection.print(out, decision, cmd.noProxy);
        out.println("--- policy ---");
        out.println("policy: " + policy + (defaultPolicy ? " (distribution default; pass --policy FILE to choose another)" : ""));
        section(out, TEXT_HEADER, inv.renderer("text").render(report));
        section(out, KV_HEADER, inv.renderer("kv").render(report));
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
    private static void section(PrintStream out, String header, String body) {
        if (!body.startsWith(header)) {
            out.println(header);
        }
        out.print(ExecRun.withNewline(body));
    }
}
