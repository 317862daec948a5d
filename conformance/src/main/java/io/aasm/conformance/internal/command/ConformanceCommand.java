package io.aasm.conformance.internal.command;

import io.aasm.conformance.internal.catalogue.Catalogue;
import io.aasm.conformance.internal.catalogue.Scenario;
import io.aasm.conformance.internal.run.ResultWriter;
import io.aasm.conformance.internal.run.SuiteResult;
import io.aasm.conformance.internal.run.SuiteRunner;
import io.aasm.ports.kernel.IsolationKernel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Gogo command {@code aasm:conformance [--backend ID] [--family NAME]}: runs the catalogue (or one family
 * of it) on this host against every installed backend (or one, plus {@code none}), writes the JSON and
 * Markdown results to a new directory under the temp directory, and returns the table. Thin: the runner
 * does the work. The installation it runs in ({@code aasm.home}) is handed to the suite, whose
 * distribution-level scenarios start a resident kernel or run {@code bin/aasm} from it.
 */
@Component(service = ConformanceCommand.class, property = {"osgi.command.scope=aasm",
        "osgi.command.function=conformance"})
public final class ConformanceCommand {
    static final String USAGE = "usage: aasm:conformance [--backend ID] [--family NAME]";

    private final SuiteRunner runner;

    @Activate
    public ConformanceCommand(@Reference IsolationKernel kernel, BundleContext context) {
        this(kernel, Optional.ofNullable(context.getProperty("aasm.home")).map(Path::of));
    }

    public ConformanceCommand(IsolationKernel kernel) {
        this(kernel, Optional.empty());
    }

    public ConformanceCommand(IsolationKernel kernel, Optional<Path> aasmHome) {
        this.runner = new SuiteRunner(kernel, aasmHome);
    }

    public String conformance() throws IOException, InterruptedException {
        return run(runner.installedBackends(), Catalogue.all());
    }

    public String conformance(String flag, String value) throws IOException, InterruptedException {
        return options(List.of(flag, value));
    }

    public String conformance(String flag, String value, String flag2, String value2)
            throws IOException, InterruptedException {
        return options(List.of(flag, value, flag2, value2));
    }

    private String options(List<String> args) throws IOException, InterruptedException {
        Optional<String> backend = Optional.empty();
        Optional<String> family = Optional.empty();
        for (int i = 0; i < args.size(); i += 2) {
            String flag = args.get(i);
            if (flag.equals("--backend") && backend.isEmpty()) {
                backend = Optional.of(args.get(i + 1));
            } else if (flag.equals("--family") && family.isEmpty()) {
                family = Optional.of(args.get(i + 1));
            } else {
                return USAGE + "  (unknown or repeated option " + flag + ")";
            }
        }
        if (backend.isPresent() && !runner.installedBackends().contains(backend.get())) {
            return "unknown backend '" + backend.get() + "'; installed: " + String.join(", ", runner.installedBackends());
        }
        if (family.isPresent() && Catalogue.family(family.get()).isEmpty()) {
            return "unknown family '" + family.get() + "'; families: " + String.join(", ", Catalogue.families().keySet());
        }
        List<String> backends = backend.map(b -> b.equals(SuiteRunner.NONE) ? List.of(SuiteRunner.NONE)
                : List.of(b, SuiteRunner.NONE)).orElse(runner.installedBackends());
        return run(backends, family.map(f -> Catalogue.family(f).orElseThrow()).orElse(Catalogue.all()));
    }

    private String run(List<String> backends, List<Scenario> scenarios) throws IOException, InterruptedException {
        // one line per cell as it is decided: a full run takes a few minutes
        SuiteResult r = runner.run(backends, scenarios, v -> System.out.println(v.backend() + " "
                + v.scenario() + ": " + v.outcome().token()));
        Path dir = Files.createTempDirectory("aasm-conformance-results-");
        ResultWriter.write(r, dir);
        return ResultWriter.table(r) + "\n" + (r.passed() ? "PASS" : "FAIL: " + r.failures().size()
                + " failing cell(s)") + "; results in " + dir + "\n";
    }
}
