package io.aasm.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.conformance.internal.catalogue.Catalogue;
import io.aasm.conformance.internal.catalogue.Scenario;
import io.aasm.conformance.internal.run.Outcome;
import io.aasm.conformance.internal.run.ResultWriter;
import io.aasm.conformance.internal.run.SuiteResult;
import io.aasm.conformance.internal.run.SuiteRunner;
import io.aasm.conformance.internal.run.Verdict;
import io.aasm.kernel.internal.service.KernelComponent;
import io.aasm.ports.backend.IsolationBackend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole catalogue against the real kernel with the real YAML policy source, on aasm-native,
 * sandlock (every cell cannot-host, with the reason, when its executable is missing), aasm-container
 * (every cell cannot-host, with the reason, when no container engine runs here) and none, run
 * once; results go to target/conformance/. Each backend's column is then judged by its own test:
 * any escape under claimed prevention, untruthful report, suite defect, or inconclusive control under
 * a prevention claim fails it; none must let everything escape.
 */
class ConformanceSuiteTest {
    /** none must let (at least) this many scenarios escape: the proof that the suite can fail. */
    static final int MIN_ESCAPES_UNDER_NONE = 40;

    static final String QEMU_VM = "aasm-qemu-vm";
    static final String ALL = "all";
    static List<Scenario> scenarios;
    static int minEscapes;
    static List<String> backends;
    static SuiteResult result;
    static final Map<String, String> unconstructible = new TreeMap<>();

    @BeforeAll
    static void runSuiteOnce() throws Exception {
        KernelComponent kernel = Components.kernel();
        StringBuilder why = new StringBuilder();
        Optional<IsolationBackend> nat = Components.nativeBackend(why);
        nat.ifPresentOrElse(b -> Components.bind(kernel, "aasm-native", b),
                () -> unconstructible.put("aasm-native", why.toString()));
        StringBuilder whySandlock = new StringBuilder();
        Optional<IsolationBackend> sandlock = Components.sandlockBackend(whySandlock);
        sandlock.ifPresentOrElse(b -> Components.bind(kernel, "sandlock", b),
                () -> unconstructible.put("sandlock", whySandlock.toString()));
        StringBuilder whyMediator = new StringBuilder();
        Components.mediator(whyMediator).ifPresentOrElse(kernel::addMediator,
                () -> unconstructible.put("transport-mediator", whyMediator.toString()));
        StringBuilder whyContainer = new StringBuilder();
        Optional<IsolationBackend> container = Components.containerBackend(whyContainer);
        container.ifPresentOrElse(b -> Components.bind(kernel, "aasm-container", b),
                () -> unconstructible.put("aasm-container", whyContainer.toString()));
        backends = new ArrayList<>(List.of("aasm-native", "sandlock", "aasm-container", SuiteRunner.NONE));
        String only = System.getProperty("aasm.conformance.backends", "");
        // "all": every column, the VM's too (what .ci/run asks for); a list: those columns and none
        boolean all = only.equals(ALL);
        if (all || List.of(only.split(",")).contains(QEMU_VM)) {
            // opt-in: about two guests a scenario, 6-7 min under TCG (docs/vm.md), so a plain `mvn test` stays quick
            StringBuilder whyVm = new StringBuilder();
            Components.qemuVmBackend(whyVm).ifPresentOrElse(b -> Components.bind(kernel, QEMU_VM, b),
                    () -> unconstructible.put(QEMU_VM, whyVm.toString()));
            backends.add(QEMU_VM);
        }
        if (!only.isBlank() && !all) {
            backends.retainAll(List.of(only.split(",")));
            if (!backends.contains(SuiteRunner.NONE)) {
                backends.add(SuiteRunner.NONE); // the evidence of what works unconfined here
            }
        }
        // -Daasm.conformance.scenarios=proc-,ipc- runs a subset (for working on scenarios)
        String subset = System.getProperty("aasm.conformance.scenarios", "");
        scenarios = Catalogue.all().stream().filter(s -> subset.isBlank()
                || List.of(subset.split(",")).stream().anyMatch(p -> s.name().startsWith(p))).toList();
        minEscapes = subset.isBlank() ? MIN_ESCAPES_UNDER_NONE : 0;
        long[] last = {System.nanoTime()};
        result = new SuiteRunner(kernel).run(backends, scenarios, v -> {
            long now = System.nanoTime();
            System.out.println("[conformance] " + (now - last[0]) / 1_000_000 + " ms " + v.backend() + " "
                    + v.scenario() + ": " + v.outcome().token() + " (" + v.reportClaim() + ") " + v.detail());
            last[0] = now;
        });
        ResultWriter.write(result, Path.of("target", "conformance"));
        System.out.println(ResultWriter.table(result));
        unconstructible.forEach((id, reason) -> System.out.println("[conformance] " + id + ": " + reason));
    }

    @Test
    void everyScenarioHasAVerdictOnEveryBackend() {
        for (String b : backends) {
            assertEquals(scenarios.size(), result.of(b).size(), "verdicts on " + b);
        }
    }

    @Test
    void noneLetsEverythingEscapeAndClaimsNothing() {
        var none = result.counts(SuiteRunner.NONE);
        assertEquals(0, none.get(Outcome.PREVENTED), "none prevented something: that scenario cannot tell");
        int escaped = none.get(Outcome.ESCAPED) + none.get(Outcome.UNCOVERED_AND_TRUTHFUL);
        assertTrue(escaped >= minEscapes, "only " + escaped + " scenarios escaped under none");
        assertHolds(SuiteRunner.NONE);
    }

    @Test
    void nativeHoldsEveryClaim() {
        assertHolds("aasm-native");
    }

    @Test
    void sandlockHoldsEveryClaim() {
        assertHolds("sandlock");
    }

    @Test
    void containerHoldsEveryClaim() {
        assertHolds("aasm-container");
    }

    @Test
    void qemuVmHoldsEveryClaimWhenSelected() {
        org.junit.jupiter.api.Assumptions.assumeTrue(backends.contains(QEMU_VM), "the aasm-qemu-vm column is opt-in: "
                + "-Daasm.conformance.backends=" + QEMU_VM + " (or " + ALL + ")");
        assertHolds(QEMU_VM);
    }

    private static void assertHolds(String backend) {
        List<Verdict> failing = result.failures().stream().filter(v -> v.backend().equals(backend)).toList();
        assertTrue(failing.isEmpty(), backend + " conformance failures:\n"
                + failing.stream().map(ConformanceSuiteTest::line).collect(Collectors.joining("\n")));
    }

    private static String line(Verdict v) {
        return v.scenario() + ": " + v.outcome().token() + " (report " + v.reportClaim() + ") " + v.detail();
    }
}
