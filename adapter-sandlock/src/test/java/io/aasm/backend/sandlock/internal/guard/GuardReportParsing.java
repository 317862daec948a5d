package io.aasm.backend.sandlock.internal.guard;

/** Builds a report from guard lines as the reader thread would, for tests of what follows from them. */
public final class GuardReportParsing {
    private GuardReportParsing() {
    }

    public static GuardReport of(int guardExit, String... lines) {
        GuardReport.Builder b = new GuardReport.Builder();
        for (String l : lines) {
            b.line(l);
        }
        b.guardExited(guardExit);
        return b.snapshot();
    }
}
