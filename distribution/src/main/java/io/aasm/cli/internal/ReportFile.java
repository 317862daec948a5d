package io.aasm.cli.internal;

import io.aasm.ports.report.IsolationReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code --report-file}: a path, or {@code -} for stderr (stdout is the program's). */
final class ReportFile {
    private ReportFile() {
    }

    static void write(Invocation inv, String target, String format, IsolationReport report) {
        String text = ExecRun.withNewline(inv.renderer(format).render(report));
        if (target.equals("-")) {
            inv.io().err().print(text);
            inv.io().err().flush();
            return;
        }
        Path file = inv.io().resolve(target);
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            inv.io().err().println("aasm: warning: could not write the report to " + file + ": " + e.getMessage());
        }
    }
}
