package io.aasm.cli.internal;

import io.aasm.ports.report.IsolationReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code --report-file}: a path, or {@code -} for stderr (stdout is the program's). The path is
 * resolved when the command starts, before anything is launched: its directory is opened then and
 * the report is later written into that very directory (see {@link PinnedDirectory}), so nothing the
 * program does to the path while it runs can redirect the report. A report that cannot be written
 * completely leaves no file and is a message plus a non-zero exit status (decided by the caller).
 */
final class ReportFile implements AutoCloseable {
    private final Optional<PinnedDirectory> dir;
    private final String name;

    private ReportFile(Optional<PinnedDirectory> dir, String name) {
        this.dir = dir;
        this.name = name;
    }

    /** No {@code --report-file}, or {@code -}: nothing to open. */
    static ReportFile open(CliIo io, String target) {
        if (target == null || target.equals("-")) {
            return new ReportFile(Optional.empty(), target);
        }
        Path file = io.resolve(target);
        if (file.getFileName() == null || file.getParent() == null) {
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "--report-file " + target
                    + " names no file; nothing was launched");
        }
        PinnedDirectory dir;
        try {
            dir = PinnedDirectory.open(file.getParent());
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "--report-file " + target
                    + ": cannot open its directory " + e.getMessage() + "; nothing was launched");
        }
        try {
            dir.requireReplaceable(file.getFileName().toString()); // before anything is launched
        } catch (IOException e) {
            dir.close();
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "--report-file " + target + ": " + e.getMessage()
                    + "; nothing was launched");
        }
        return new ReportFile(Optional.of(dir), file.getFileName().toString());
    }

    /** True when there is nothing to write or the whole report was written; otherwise says why on stderr. */
    boolean write(Invocation inv, String format, IsolationReport report) {
        if (name == null) {
            return true;
        }
        String text = ExecRun.withNewline(inv.renderer(format).render(report));
        if (dir.isEmpty()) {
            inv.io().err().print(text);
            inv.io().err().flush();
            return true;
        }
        try {
            dir.get().replace(name, text.getBytes(StandardCharsets.UTF_8));
            return true;
        } catch (IOException e) {
            inv.io().err().println("aasm: the report was not written to " + dir.get().path().resolve(name) + ": "
                    + e.getMessage() + " (no partial file was left)");
            return false;
        }
    }

    @Override
    public void close() {
        dir.ifPresent(PinnedDirectory::close);
    }
}
