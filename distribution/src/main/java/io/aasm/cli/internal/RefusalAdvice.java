package io.aasm.cli.internal;

import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.RefusalEntry;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What to change on this command line, from the refusal tokens of a report. The kernel words its
 * refusals without naming any flag (it serves faces that have none); the tokens are stable, so the
 * command layer, which owns the flags, adds the advice.
 */
final class RefusalAdvice {
    private static final String NONE_DELIBERATELY = "--isolation none launches unconfined, deliberately and reported"
            + " as NO BOUNDARY ESTABLISHED";
    private static final Map<String, String> BY_TOKEN = Map.of(
            "backend_pinned_without_boundary", "--isolation-backend needs --isolation auto (or process);"
                    + " add one, or drop --isolation-backend",
            "backend_not_installed", "--isolation-backend takes an installed backend id: see `aasm backends`",
            "backend_unavailable", "install or repair the backend (`aasm backends` shows why it is unavailable), or: "
                    + NONE_DELIBERATELY,
            "backend_fault", "`aasm backends` shows the backend's fault; or: " + NONE_DELIBERATELY,
            "no_backend_eligible", "`aasm backends` shows what each backend can enforce on this host; pin one with"
                    + " --isolation-backend ID, relax the policy (--policy FILE), or: " + NONE_DELIBERATELY,
            "working_directory_too_wide", "run from the project's folder, or pass --workdir DIR");

    private RefusalAdvice() {
    }

    /** One line per distinct piece of advice, in the order the report lists its refusals. */
    static List<String> of(IsolationReport report) {
        Set<String> lines = new LinkedHashSet<>();
        for (RefusalEntry e : report.refusals()) {
            String advice = BY_TOKEN.get(e.reason());
            if (advice != null) {
                lines.add(advice);
            }
        }
        return List.copyOf(lines);
    }
}
