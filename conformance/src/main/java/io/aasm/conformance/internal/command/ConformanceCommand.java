package io.aasm.conformance.internal.command;

import io.aasm.conformance.internal.catalogue.Catalogue;
import io.aasm.conformance.internal.run.ResultWriter;
import io.aasm.conformance.internal.run.SuiteResult;
import io.aasm.conformance.internal.run.SuiteRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Gogo command {@code aasm:conformance [--backend ID]}: runs the catalogue on this host against
 * every installed backend (or one, plus {@code none}), writes the JSON and Markdown results to a new
 * directory under the temp directory, and returns the table. Thin: the runner does the work.
 */
@Component(service = ConformanceCommand.class, property = {"osgi.command.scope=aasm",
        "osgi.command.function=conformance"})
public final class ConformanceCommand {
    private final SuiteRunner runner;

    @Activate
    public ConformanceCommand(@Reference io.aasm.ports.kernel.IsolationKernel kernel) {
        this.runner = new SuiteRunner(kernel);
    }

    public String conformance() throws IOException, InterruptedException {
        return run(runner.installedBackends());
    }

    public String conformance(String flag, String backend) throws IOException, InterruptedException {
        if (!flag.equals("--backend")) {
            return "usage: aasm:conformance [--backend ID]  (unknown option " + flag + ")";
        }
        if (!runner.installedBackends().contains(backend)) {
            return "unknown backend '" + backend + "'; installed: " + String.join(", ", runner.installedBackends());
        }
        return run(backend.equals(SuiteRunner.NONE) ? List.of(SuiteRunner.NONE) : List.of(backend, SuiteRunner.NONE));
    }

    private String run(List<String> backends) throws IOException, InterruptedException {
        // one line per cell as it is decided: a full run takes a minute or two
        SuiteResult r = runner.run(backends, Catalogue.all(), v -> System.out.println(v.backend() + " "
                + v.scenario() + ": " + v.outcome().token()));
        Path dir = Files.createTempDirectory("aasm-conformance-results-");
        ResultWriter.write(r, dir);
        return ResultWriter.table(r) + "\n" + (r.passed() ? "PASS" : "FAIL: " + r.failures().size()
                + " failing cell(s)") + "; results in " + dir + "\n";
    }
}
