package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.lower.VmRoutes;
import io.aasm.backend.vm.internal.probe.ProbeCache;
import io.aasm.backend.vm.internal.probe.ProbeResult;
import io.aasm.backend.vm.internal.probe.VmCapabilities;
import io.aasm.backend.vm.internal.probe.VmProbeSuite;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PlatformBoundary;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What this host's guests can do, measured once and kept: the probe verdicts from the per-host cache, or
 * from running the suite (about twenty guest launches) when there is none; then the routes and guest facts
 * they are read against. Nothing is probed on a launch once this is known.
 */
final class ProbeState {
    /** The routes (they depend on the guest's Landlock ABI) and whether the guest has the tree's cgroup. */
    record Facts(VmRoutes routes, boolean cgroup) {
    }

    interface FactsSource {
        Facts get() throws IOException;
    }

    private final Supplier<ProbeCache> cache;
    private final Supplier<VmProbeSuite> suite;
    private volatile VmCapabilities measured;
    private volatile BackendCapabilities failed;

    ProbeState(Supplier<ProbeCache> cache, Supplier<VmProbeSuite> suite) {
        this.cache = cache;
        this.suite = suite;
    }

    VmCapabilities measured(boolean refresh, Supplier<Optional<String>> unavailable, FactsSource facts) {
        VmCapabilities m = measured;
        if (m != null && !refresh) {
            return m;
        }
        synchronized (this) {
            if (measured == null || refresh) {
                measured = measure(refresh, unavailable, facts);
            }
            return measured;
        }
    }

    private VmCapabilities measure(boolean refresh, Supplier<Optional<String>> unavailable, FactsSource source) {
        Optional<String> why = unavailable.get();
        if (why.isPresent()) {
            return new Unavailable(why.get());
        }
        Facts facts;
        try {
            facts = source.get(); // boots and saves the template on first use
        } catch (IOException e) {
            return new Unavailable("the guest could not be started here: " + e.getMessage());
        }
        ProbeCache store = cache.get();
        Optional<ProbeCache.Entry> entry = refresh ? Optional.empty() : store.read();
        if (entry.isEmpty()) {
            Map<CapabilityDomain, ProbeResult> results = suite.get().runAll();
            entry = Optional.of(new ProbeCache.Entry(Instant.now(), results));
            try {
                store.write(entry.get());
            } catch (IOException e) {
                // an unwritable cache only costs probing again next time
            }
        }
        return new VmCapabilities(facts.routes(), facts.cgroup(), entry.get().results(),
                Optional.of(entry.get().measuredAt()));
    }

    /** A host where no guest runs: every answer is "unavailable", with the reason. */
    private static final class Unavailable extends VmCapabilities {
        private final String reason;

        Unavailable(String reason) {
            super(new VmRoutes(1, 128, 0), false, Map.of(), Optional.empty());
            this.reason = reason;
        }

        @Override
        public BackendCapabilities general() {
            return BackendCapabilities.unavailable(reason, PlatformBoundary.SEPARATE_KERNEL);
        }

        @Override
        public BackendCapabilities narrowed(java.util.List<io.aasm.ports.policy.ControlRequirement> stated) {
            return general();
        }
    }
}
