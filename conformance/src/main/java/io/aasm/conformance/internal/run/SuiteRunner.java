package io.aasm.conformance.internal.run;

import io.aasm.conformance.internal.catalogue.Scenario;
import io.aasm.conformance.internal.catalogue.Staged;
import io.aasm.conformance.internal.catalogue.Staging;
import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Toolbox;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.kernel.BackendStatus;
import io.aasm.ports.kernel.IsolationKernel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs the catalogue against backends through the kernel service, one scenario at a time (the
 * effects are observed on shared host resources, so nothing runs in parallel). {@code none} is the
 * kernel's unconfined launch: the control that proves the suite can fail.
 */
public final class SuiteRunner {
    public static final String NONE = "none";

    private final IsolationKernel kernel;
    private final TrialRunner launcher;
    private final Optional<Path> aasmHome;

    public SuiteRunner(IsolationKernel kernel) {
        this(kernel, Optional.empty());
    }

    /** {@code aasmHome}: the installation the suite runs in, which the distribution-level scenarios need. */
    public SuiteRunner(IsolationKernel kernel, Optional<Path> aasmHome) {
        this.kernel = kernel;
        this.launcher = new TrialRunner(kernel);
        this.aasmHome = aasmHome;
    }

    /** Every installed backend, then {@code none}. */
    public List<String> installedBackends() {
        List<String> ids = new ArrayList<>(kernel.backends().stream().map(BackendStatus::id).toList());
        ids.add(NONE);
        return ids;
    }

    public SuiteResult run(List<String> backends, List<Scenario> scenarios, Consumer<Verdict> progress)
            throws IOException, InterruptedException {
        Instant start = Instant.now();
        List<Verdict> verdicts = new ArrayList<>();
        // none first: which actions work on this host unconfined is evidence the other columns use
        List<String> order = new ArrayList<>(backends);
        if (order.remove(NONE)) {
            order.add(0, NONE);
        }
        Set<String> worksUnconfined = new HashSet<>();
        try (Toolbox tools = Toolbox.create(aasmHome)) {
            for (String backend : order) {
                Optional<String> unusable = unusable(backend);
                // asked once per column: a listing is not free
                Optional<io.aasm.ports.capability.PlatformBoundary> boundary = boundary(backend);
                boolean separateKernel = boundary.map(b -> b == io.aasm.ports.capability.PlatformBoundary.SEPARATE_KERNEL)
                        .orElse(false);
                for (Scenario sc : scenarios) {
                    Verdict v = unusable.isPresent()
                            ? Judge.verdict(sc, backend, Outcome.CANNOT_HOST, unusable.get(), "-", false)
                            : one(tools, backend, sc, worksUnconfined.contains(sc.name()), separateKernel,
                            boundary);
                    if (backend.equals(NONE) && (v.outcome() == Outcome.ESCAPED
                            || v.outcome() == Outcome.UNCOVERED_AND_TRUTHFUL)) {
                        worksUnconfined.add(sc.name());
                    }
                    verdicts.add(v);
                    progress.accept(v);
                }
            }
        }
        String host = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch") + ", user " + System.getProperty("user.name");
        return new SuiteResult(start, Duration.between(start, Instant.now()), host, backends,
                scenarios.stream().map(Scenario::name).toList(), verdicts);
    }

    /** The backend's own statement of its platform boundary, from its listing (never a guess by id; none has none). */
    private Optional<io.aasm.ports.capability.PlatformBoundary> boundary(String backend) {
        return kernel.backends().stream().filter(s -> s.id().equals(backend)).findFirst()
                .flatMap(BackendStatus::capabilities).map(c -> c.platformBoundary());
    }


    private Optional<String> unusable(String backend) {
        if (backend.equals(NONE)) {
            return Optional.empty();
        }
        Optional<BackendStatus> status = kernel.backends().stream().filter(s -> s.id().equals(backend)).findFirst();
        if (status.isEmpty()) {
            return Optional.of("backend " + backend + " is not installed (installed: "
                    + String.join(", ", installedBackends()) + ")");
        }
        if (status.get().fault().isPresent()) {
            return Optional.of("backend " + backend + " failed: " + status.get().fault().get());
        }
        Optional<BackendCapabilities> caps = status.get().capabilities();
        if (caps.isPresent() && caps.get().availability() instanceof Availability.Unavailable u) {
            return Optional.of("backend " + backend + " is unavailable here: " + u.reason());
        }
        return Optional.empty();
    }

    private Verdict one(Toolbox tools, String backend, Scenario sc, boolean worksUnconfined, boolean separateKernel,
                        Optional<io.aasm.ports.capability.PlatformBoundary> boundary) throws InterruptedException {
        Bench bench;
        try {
            bench = tools.bench(sc.name() + "." + backend);
        } catch (IOException e) {
            return Judge.verdict(sc, backend, Outcome.CANNOT_HOST, "cannot create a workspace: " + e.getMessage(), "-",
                    false);
        }
        Staged staged = null;
        try {
            Staging staging = sc.stager().stage(bench);
            if (staging instanceof Staging.CannotHost c) {
                return Judge.verdict(sc, backend, Outcome.CANNOT_HOST, c.reason(), "-", false);
            }
            Staged st = ((Staging.Ready) staging).staged();
            staged = st;
            Optional<String> notHere = boundary.map(((Staging.Ready) staging).cannotHostOn()::get);
            if (notHere.isPresent()) {
                return Judge.verdict(sc, backend, Outcome.CANNOT_HOST, notHere.get(), "-", false);
            }
            Trial hostile = launcher.run(backend, bench, st.hostilePolicy(), st);
            return Judge.judge(sc, backend, st, hostile, () -> {
                st.reset().run();
                return launcher.run(backend, bench, st.controlPolicy(), st);
            }, worksUnconfined, separateKernel, onHost -> {
                st.reset().run();
                return launcher.run(onHost ? NONE : backend, bench, st.controlPolicy(), st.probing());
            });
        } catch (IOException | RuntimeException e) {
            return Judge.verdict(sc, backend, Outcome.SUITE_DEFECT, "the scenario failed to run: " + e, "-", false);
        } finally {
            if (staged != null) {
                try {
                    staged.cleanup().run();
                } catch (IOException | RuntimeException e) {
                    // the workspace is deleted below; an outside fixture is stopped by its own cleanup
                }
            }
            Trees.delete(bench.ws());
        }
    }
}
