package io.aasm.cli.internal;

import io.aasm.ports.conformance.ConformanceRun;
import io.aasm.ports.conformance.ConformanceSuite;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code aasm conformance [--backend ID] [--family NAME]}: the hostile-agent suite on this host
 * (docs/conformance.md). Parses, checks the names against what the suite offers (nothing runs on a bad
 * one), runs, prints a line per cell and the table. Exit 0 only when every cell is truthful.
 */
@Command(name = "conformance", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the conformance and escape suite on this host (takes minutes).",
            "Every scenario against every installed backend (or one) and `none`, each hostile action with a"
                + " control, judged against the launch's reports. Prints one line per cell as it goes, then the"
                + " table; writes JSON and Markdown results to a new aasm-conformance-results-* directory under"
                + " the temp directory.",
            "Exit 0 when every cell is truthful, 1 when any cell fails (an escape under a claim of prevention,"
                + " an untruthful report, an inconclusive control under a claim, a suite defect)."})
final class ConformanceCommand implements Callable<Integer> {
    private final Invocation inv;

    @Option(names = "--backend", paramLabel = "ID",
            description = "Only this backend (and `none`, the suite's control column); `none` alone is allowed.")
    String backend;

    @Option(names = "--family", paramLabel = "NAME", description = "Only this family of scenarios: domains, surroundings or mediation.")
    String family;

    ConformanceCommand(Invocation inv) {
        this.inv = inv;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        ConformanceSuite suite = inv.conformance();
        if (family != null && !suite.families().contains(family)) {
            inv.io().err().println("aasm: unknown family '" + family + "'; families: " + String.join(", ", suite.families()));
            return ExitCodes.USAGE;
        }
        if (backend != null && !suite.backends().contains(backend)) {
            // like `aasm probe --backend`: an id that is not installed is not a typo of syntax
            inv.io().err().println("aasm: no backend `" + backend + "` is installed; installed: "
                    + String.join(", ", suite.backends()) + "; nothing was run");
            return ExitCodes.FAILED_BEFORE_START;
        }
        ConformanceRun run = suite.run(Optional.ofNullable(backend), Optional.ofNullable(family),
                line -> inv.io().out().println(line));
        inv.io().out().print(ExecRun.withNewline(run.table()));
        inv.io().out().println((run.passed() ? "PASS" : "FAIL: " + run.failingCells().size() + " failing cell(s)")
                + "; results in " + run.resultsDirectory());
        run.failingCells().forEach(c -> inv.io().err().println("aasm: failing cell: " + c));
        return run.passed() ? ExitCodes.OK : ExitCodes.SUITE_FAILED;
    }
}
