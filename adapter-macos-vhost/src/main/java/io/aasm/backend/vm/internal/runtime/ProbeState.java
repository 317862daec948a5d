package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.lower.VmRoutes;
import io.aasm.backend.vm.internal.probe.ProbeCache;
import io.aasm.backend.vm.internal.probe.ProbeKey;
import io.aasm.backend.vm.internal.probe.ProbeResult;
import io.aasm.backend.vm.internal.probe.Unmeasured;
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
 * What this host's guests can do, measured once per key and kept. A listing ({@link #listed}) reads the per-host
 * cache and otherwise says "not yet measured" without starting any guest; the first use ({@link #measured})
 * boots the template and runs the suite (about twenty guest launches) when no trusted cache exists. The routes
 * are read against the guest facts recorded with the verdicts, so a cached answer needs no guest either.
 */
final class ProbeState {
    private final String backendId;
    private final String version;
    private final VmSettings settings;
    private final Hypervisor hypervisor;
    private final Supplier<VmProbeSuite> suite;
    private volatile VmCapabilities measured;

    ProbeState(String backendId, String version, VmSettings settings, Hypervisor hypervisor,
               Supplier<VmProbeSuite> suite) {
        this.backendId = backendId;
        this.version = version;
        this.settings = settings;
        this.hypervisor = hypervisor;
        this.suite = suite;
    }

    /** The cached verdicts, or "not yet measured": never starts a guest. */
    BackendCapabilities listed(Supplier<Optional<String>> unavailable) {
        VmCapabilities m = measured;
        if (m != null) {
            return m.general();
        }
        Optional<String> why = unavailable.get();
        if (why.isPresent()) {
            return BackendCapabilities.unavailable(why.get(), PlatformBoundary.SEPARATE_KERNEL);
        }
        ProbeCache.Lookup l = cache().read();
        if (l.entry().isEmpty()) {
            return Unmeasured.capabilities(backendId, l.why());
        }
        VmCapabilities c = from(l.entry().get());
        measured = c;
        return c.general();
    }

    /** The verdicts a launch is planned against: cached when trusted, else measured now. */
    VmCapabilities measured(boolean refresh, Supplier<Optional<String>> unavailable) {
        VmCapabilities m = measured;
        if (m != null && !refresh) {
            return m;
        }
        synchronized (this) {
            if (measured == null || refresh) {
                measured = measure(refresh, unavailable);
            }
            return measured;
        }
    }

    ProbeCache cache() {
        return new ProbeCache(settings.probeDir(), ProbeKey.of(backendId, version, hypervisor.probeKey()),
                settings.uid());
    }

    private VmCapabilities measure(boolean refresh, Supplier<Optional<String>> unavailable) {
        Optional<String> why = unavailable.get();
        if (why.isPresent()) {
            return new Unavailable(why.get());
        }
        ProbeCache store = cache();
        if (!refresh) {
            Optional<ProbeCache.Entry> cached = store.read().entry();
            if (cached.isPresent()) {
                return from(cached.get());
            }
        }
        GuestFacts facts;
        try {
            facts = hypervisor.facts(); // boots and saves the template on first use
        } catch (IOException e) {
            return new Unavailable("the guest could not be started here: " + e.getMessage());
        }
        Map<CapabilityDomain, ProbeResult> results = suite.get().runAll();
        ProbeCache.Entry entry = new ProbeCache.Entry(Instant.now(),
                new ProbeCache.Guest(facts.kernel(), facts.landlockAbi(), facts.cgroup()), results);
        try {
            store.write(entry);
        } catch (IOException e) {
            // an unwritable cache only costs probing again next time
        }
        return from(entry);
    }

    private VmCapabilities from(ProbeCache.Entry e) {
        return new VmCapabilities(new VmRoutes(settings.slots(), settings.memoryMib(), e.guest().landlockAbi()),
                e.guest().cgroup(), e.results(), Optional.of(e.measuredAt()));
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

        // The two-argument form is the one a launch plans with (VmBoundary); the one-argument form goes through it.
        @Override
        public BackendCapabilities narrowed(java.util.List<io.aasm.ports.policy.ControlRequirement> stated,
                                            io.aasm.ports.transport.TransportMediation transport) {
            return general();
        }
    }
}
