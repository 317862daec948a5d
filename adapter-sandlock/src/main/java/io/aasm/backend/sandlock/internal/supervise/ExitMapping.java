package io.aasm.backend.sandlock.internal.supervise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.backend.sandlock.internal.guard.GuardReport;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchFailureKind;
import java.util.Optional;

/**
 * How the program ended, from what sandlock and the guard reported. Sandlock 0.8.6 exits 1 for a
 * program killed by a signal, so its exit code alone cannot tell; its {@code --status-fd} line can:
 * {@code {"exit_code":N}}, {@code {"exit_code":-1,"signal":S}}, or {@code {"exit_code":-1}} for a
 * SIGKILL (sandlock's "killed" end, the one a memory-ceiling kill also takes). Pure: no I/O.
 */
public final class ExitMapping {
    /** What aasm itself did to the tree, if anything, before it ended. */
    public enum Requested { NONE, TERM, KILL, DEADLINE }

    /** The disposition and one sentence saying what it rests on. */
    public record Mapped(ExitDisposition disposition, String account) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private ExitMapping() {
    }

    public static Mapped map(GuardReport r, Requested requested) {
        if (r.refused().isPresent()) {
            return new Mapped(new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR,
                    "the guard could not start sandlock (" + r.refused().get() + ")"), "guard refused: "
                    + r.refused().get());
        }
        if (requested == Requested.DEADLINE) {
            return new Mapped(new ExitDisposition.Signalled(9), "the wall-clock ceiling fired: the guard killed the"
                    + " whole tree with SIGKILL");
        }
        if (r.end().isEmpty() && r.sandlockPid().isEmpty()) {
            return new Mapped(new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR, "the guard ended (status "
                    + r.guardExit() + ") before it started sandlock"), "guard ended before starting sandlock");
        }
        if (r.end().isEmpty()) {
            // The guard died without reporting (killed): its death killed sandlock (parent-death signal).
            int st = r.guardExit();
            return new Mapped(new ExitDisposition.Signalled(9), "the guard ended without a report (status " + st
                    + "); sandlock died with it by its parent-death signal (SIGKILL)");
        }
        Optional<String> last = r.statusLines().isEmpty() ? Optional.empty()
                : Optional.of(r.statusLines().get(r.statusLines().size() - 1));
        String extra = r.statusLines().size() > 1 ? " (" + r.statusLines().size()
                + " status lines; sandlock's own, the last, was used)" : "";
        GuardReport.End end = r.end().get();
        if (last.isPresent()) {
            Optional<Mapped> fromStatus = fromStatus(last.get(), extra);
            if (fromStatus.isPresent()) {
                return fromStatus.get();
            }
        }
        if (end instanceof GuardReport.End.Signal s) {
            String why = requested == Requested.KILL ? "aasm killed the tree" : "sandlock itself was killed";
            return new Mapped(new ExitDisposition.Signalled(s.signal()), why + " (signal " + s.signal()
                    + ") before it reported the program's status");
        }
        int code = ((GuardReport.End.Code) end).code();
        return new Mapped(new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR, "sandlock exited " + code
                + " without reporting a program status: it could not set up the sandbox or run the program (its"
                + " message is on stderr)"), "sandlock exit " + code + ", no status line");
    }

    static Optional<Mapped> fromStatus(String line, String extra) {
        JsonNode n;
        try {
            n = JSON.readTree(line);
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
        if (n == null || !n.path("exit_code").isInt()) {
            return Optional.empty();
        }
        int code = n.get("exit_code").asInt();
        if (code >= 0) {
            return Optional.of(new Mapped(new ExitDisposition.Exited(code), "sandlock status " + line + extra));
        }
        if (n.path("signal").isInt()) {
            int signal = n.get("signal").asInt();
            return Optional.of(new Mapped(new ExitDisposition.Signalled(signal), "sandlock status " + line
                    + ": killed by signal " + signal + extra));
        }
        return Optional.of(new Mapped(new ExitDisposition.Signalled(9), "sandlock status " + line
                + ": killed by SIGKILL (sandlock 0.8.6 reports a SIGKILL death without a signal number)" + extra));
    }
}
