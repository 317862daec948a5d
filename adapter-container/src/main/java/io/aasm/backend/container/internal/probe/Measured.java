package io.aasm.backend.container.internal.probe;

import io.aasm.backend.container.internal.lower.Need;
import io.aasm.backend.container.internal.lower.Route;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.policy.ControlRequirement;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What containers on this host can do, measured once and kept: the probe verdicts (from the per-host
 * cache, or run when there is none) and the reports assembled from them. Narrowing to one launch reads
 * the kept verdicts; nothing is probed on the launch path once the cache holds an entry.
 */
public final class Measured {
    private record Measurement(BackendCapabilities general, Map<CapabilityDomain, ProbeResult> probes,
                               ProbeResult authority, ProbeResult relay) {
    }

    /** How to probe and where to keep the results; made only when the engine is reachable. */
    public record Probing(ProbeCache cache, Supplier<Map<CapabilityDomain, ProbeResult>> suite,
                          Supplier<ProbeResult> authority, Supplier<ProbeResult> relay) {
    }

    private final Function<CapabilityDomain, Route> generalRoute;
    private final Function<Need, PrerequisiteStatus> needs;
    private volatile Measurement measured;

    public Measured(Function<CapabilityDomain, Route> generalRoute, Function<Need, PrerequisiteStatus> needs) {
        this.generalRoute = generalRoute;
        this.needs = needs;
    }

    /** The kept measurement, made from {@code probing} the first time (or again when {@code refresh}). */
    public synchronized BackendCapabilities general(Probing probing, boolean refresh) {
        if (measured == null || refresh) {
            measured = measure(probing, refresh);
        }
        return measured.general();
    }

    /** The authority observation of the kept measurement (empty before one was made). */
    public Optional<ProbeResult> authority() {
        Measurement m = measured;
        return m == null ? Optional.empty() : Optional.of(m.authority());
    }

    /**
     * {@code mediated}: the requirements whose route is the transport relay; their prevention needs the relay
     * pair as well as the domain's own (the way around the proxy reached nothing, the way through it arrived).
     */
    public BackendCapabilities narrowed(Probing probing, List<ControlRequirement> stated,
                                        Function<ControlRequirement, Route> route,
                                        java.util.function.Predicate<ControlRequirement> mediated) {
        general(probing, false);
        Measurement m = measured;
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(m.general().reports());
        for (ControlRequirement r : stated) {
            Optional<ProbeResult> probe = Optional.ofNullable(m.probes().get(r.domain()));
            if (mediated.test(r)) {
                probe = probe.map(p -> both(p, m.relay()));
            }
            reports.put(r.domain(), CapabilityAssembler.report(r.domain(), route.apply(r), needs, probe));
        }
        return new BackendCapabilities(m.general().availability(), PlatformBoundary.CONTAINER, reports,
                m.general().measuredAt());
    }

    static ProbeResult both(ProbeResult own, ProbeResult relay) {
        String detail = own.detail() + "; transport relay: " + relay.detail();
        return own.observed() && relay.observed() ? ProbeResult.observed(detail) : ProbeResult.inconclusive(detail);
    }

    private Measurement measure(Probing probing, boolean refresh) {
        Optional<ProbeCache.Entry> entry = refresh ? Optional.empty() : probing.cache().read();
        if (entry.isEmpty()) {
            entry = Optional.of(new ProbeCache.Entry(Instant.now(), probing.suite().get(), probing.authority().get(),
                    probing.relay().get()));
            try {
                probing.cache().write(entry.get());
            } catch (IOException e) {
                // an unwritable cache only costs probing again next time
            }
        }
        Map<CapabilityDomain, ProbeResult> probes = Map.copyOf(entry.get().results());
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            reports.put(d, CapabilityAssembler.report(d, generalRoute.apply(d), needs, Optional.ofNullable(probes.get(d))));
        }
        return new Measurement(new BackendCapabilities(new Availability.Available(), PlatformBoundary.CONTAINER, reports,
                Optional.of(entry.get().measuredAt())), probes, entry.get().authority(), entry.get().relay());
    }
}
