package io.aasm.backend.landlockseccomp.internal.probe;

import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.lower.PathReads;
import io.aasm.backend.landlockseccomp.internal.lower.Route;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.policy.ControlRequirement;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What this host can do, measured once and kept: the probe verdicts (from the per-host cache, or run
 * when there is none) and the capability reports assembled from them. Narrowing to one launch reads
 * the kept verdicts; nothing is probed or parsed back out of a report on the launch path.
 */
public final class MeasuredCapabilities {

    /** The probe verdicts, and the reports for the strictest scope of each domain. */
    private record Measurement(long generation, BackendCapabilities general, Map<CapabilityDomain, ProbeResult> probes) {
    }

    private final HostFacts facts;
    private final Supplier<Optional<String>> unavailable;
    private final Supplier<ProbeCache> cache;
    private final Supplier<ProbeSuite> suite;
    private final Function<CapabilityDomain, Route> generalRoute;
    private volatile Measurement measured;
    private long generations;

    /**
     * {@code unavailable}: why nothing can run here (no probe then); {@code cache} and {@code suite} are made
     * only when needed; {@code generalRoute}: the route of each domain's strictest scope.
     */
    public MeasuredCapabilities(HostFacts facts, Supplier<Optional<String>> unavailable, Supplier<ProbeCache> cache,
                                Supplier<ProbeSuite> suite, Function<CapabilityDomain, Route> generalRoute) {
        this.facts = facts;
        this.unavailable = unavailable;
        this.cache = cache;
        this.suite = suite;
        this.generalRoute = generalRoute;
    }

    /** The cached measurement; the first call on a host without a cache entry runs the probes. */
    public BackendCapabilities general() {
        return measurement(false).general();
    }

    /** Runs the probes again and replaces the cache entry. */
    public BackendCapabilities refresh() {
        return measurement(true).general();
    }

    /**
     * The reports narrowed to one launch: each stated domain's report is assembled from the route its scope
     * takes (given every requirement of the launch) and the domain's kept probe verdict.
     */
    public BackendCapabilities narrowed(List<ControlRequirement> stated, Function<ControlRequirement, Route> route) {
        return narrowed(stated, route, PathReads.DIRECT);
    }

    /** The same, the prerequisites' filesystem questions asked through {@code reads}. */
    public BackendCapabilities narrowed(List<ControlRequirement> stated, Function<ControlRequirement, Route> route,
                                       PathReads reads) {
        Measurement m = measurement(false);
        if (!m.general().available()) {
            return m.general();
        }
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(m.general().reports());
        for (ControlRequirement r : stated) {
            CapabilityDomain d = r.domain();
            reports.put(d, CapabilityAssembler.report(d, facts, route.apply(r), Optional.ofNullable(m.probes().get(d)),
                    reads));
        }
        BackendCapabilities g = m.general();
        return new BackendCapabilities(g.availability(), g.platformBoundary(), reports, g.measuredAt());
    }

    /**
     * Which measurement the reports come from now (measuring first if none was made): a new number after every
     * {@link #refresh}, so what was narrowed from an older one is recognised as such.
     */
    public long generation() {
        return measurement(false).generation();
    }

    /** Replaces one domain's report (a scope the lowering found it cannot install). */
    public static BackendCapabilities with(BackendCapabilities caps, CapabilityDomain d,
                                           BiFunction<CapabilityDomain, CapabilityReport, CapabilityReport> change) {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(caps.reports());
        reports.computeIfPresent(d, change);
        return new BackendCapabilities(caps.availability(), caps.platformBoundary(), reports, caps.measuredAt());
    }

    private Measurement measurement(boolean refresh) {
        Measurement m = measured;
        if (m != null && !refresh) {
            return m;
        }
        synchronized (this) {
            if (measured == null || refresh) {
                measured = measure(refresh);
            }
            return measured;
        }
    }

    private Measurement measure(boolean refresh) {
        long generation = ++generations; // under the lock of measurement()
        Optional<String> why = unavailable.get();
        if (why.isPresent()) {
            return new Measurement(generation, BackendCapabilities.unavailable(why.get(), PlatformBoundary.SHARED_HOST_KERNEL),
                    Map.of());
        }
        ProbeCache store = cache.get();
        Optional<ProbeCache.Entry> entry = refresh ? Optional.empty() : store.read();
        if (entry.isEmpty()) {
            entry = Optional.of(new ProbeCache.Entry(Instant.now(), suite.get().runAll()));
            try {
                store.write(entry.get());
            } catch (IOException e) {
                // an unwritable cache only costs a re-probe next time
            }
        }
        Map<CapabilityDomain, ProbeResult> probes = Map.copyOf(entry.get().results());
        return new Measurement(generation, CapabilityAssembler.assemble(facts, generalRoute, probes,
                Optional.of(entry.get().measuredAt())), probes);
    }
}
