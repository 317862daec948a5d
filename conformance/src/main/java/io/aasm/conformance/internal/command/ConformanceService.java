package io.aasm.conformance.internal.command;

import io.aasm.ports.kernel.FrameworkProperties;
import io.aasm.conformance.internal.catalogue.Catalogue;
import io.aasm.conformance.internal.catalogue.Scenario;
import io.aasm.conformance.internal.run.ResultWriter;
import io.aasm.conformance.internal.run.SuiteResult;
import io.aasm.conformance.internal.run.SuiteRunner;
import io.aasm.conformance.internal.run.Verdict;
import io.aasm.ports.conformance.ConformanceRun;
import io.aasm.ports.conformance.ConformanceSuite;
import io.aasm.ports.kernel.IsolationKernel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The suite as a service for the command layer ({@code aasm conformance}, headless and in the shell):
 * runs the catalogue (or one family of it) on this host against every installed backend (or one, plus
 * {@code none}), writes the JSON and Markdown results to a new directory under the temp directory, and
 * returns the table. Thin: the runner does the work. The installation it runs in ({@code aasm.home}) is
 * handed to the suite, whose distribution-level scenarios start a resident kernel or run {@code bin/aasm}
 * from it.
 */
@Component(service = ConformanceSuite.class)
public final class ConformanceService implements ConformanceSuite {
    private final SuiteRunner runner;

    @Activate
    public ConformanceService(@Reference IsolationKernel kernel, BundleContext context) {
        this(kernel, Optional.ofNullable(context.getProperty(FrameworkProperties.HOME)).map(Path::of));
    }

    public ConformanceService(IsolationKernel kernel, Optional<Path> aasmHome) {
        this.runner = new SuiteRunner(kernel, aasmHome);
    }

    @Override
    public List<String> backends() {
        return runner.installedBackends();
    }

    @Override
    public List<String> families() {
        return List.copyOf(Catalogue.families().keySet());
    }

    @Override
    public ConformanceRun run(Optional<String> backend, Optional<String> family, Consumer<String> progress)
            throws IOException, InterruptedException {
        List<String> installed = runner.installedBackends();
        if (backend.isPresent() && !installed.contains(backend.get())) {
            throw new IllegalArgumentException("unknown backend '" + backend.get() + "'; installed: "
                    + String.join(", ", installed));
        }
        List<Scenario> scenarios = family.map(f -> Catalogue.family(f).orElseThrow(() -> new IllegalArgumentException(
                "unknown family '" + f + "'; families: " + String.join(", ", families())))).orElse(Catalogue.all());
        List<String> columns = backend.map(b -> b.equals(SuiteRunner.NONE) ? List.of(SuiteRunner.NONE)
                : List.of(b, SuiteRunner.NONE)).orElse(installed);
        // one line per cell as it is decided: a full run takes a few minutes
        SuiteResult r = runner.run(columns, scenarios, v -> progress.accept(v.backend() + " " + v.scenario() + ": "
                + v.outcome().token()));
        Path dir = Files.createTempDirectory("aasm-conformance-results-");
        ResultWriter.write(r, dir);
        List<String> failing = r.failures().stream().map(ConformanceService::cell).toList();
        return new ConformanceRun(r.passed(), failing, ResultWriter.table(r), dir.toString());
    }

    private static String cell(Verdict v) {
        return v.backend() + " " + v.scenario() + ": " + v.outcome().token();
    }
}
