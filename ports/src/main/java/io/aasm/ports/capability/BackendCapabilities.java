package io.aasm.ports.capability;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A backend's availability and per-domain reports, as measured on this host. A domain without a
 * report is <em>unknown</em>, which is not the same as unsupported: it can never satisfy a
 * prevention requirement. {@code measuredAt} says when the probes behind the reports ran.
 */
public record BackendCapabilities(
        Availability availability,
        PlatformBoundary platformBoundary,
        Map<CapabilityDomain, CapabilityReport> reports,
        Optional<Instant> measuredAt) {

    public BackendCapabilities {
        Objects.requireNonNull(availability, "availability");
        Objects.requireNonNull(platformBoundary, "platformBoundary");
        EnumMap<CapabilityDomain, CapabilityReport> copy = new EnumMap<>(CapabilityDomain.class);
        reports.forEach((domain, report) -> {
            if (report.domain() != domain) {
                throw new IllegalArgumentException("report for " + report.domain().token()
                        + " filed under " + domain.token());
            }
            copy.put(domain, report);
        });
        reports = Collections.unmodifiableMap(copy);
        Objects.requireNonNull(measuredAt, "measuredAt");
    }

    /** A backend that cannot be used here; it reports nothing about any domain. */
    public static BackendCapabilities unavailable(String reason, PlatformBoundary boundary) {
        return new BackendCapabilities(new Availability.Unavailable(reason), boundary, Map.of(), Optional.empty());
    }

    public Optional<CapabilityReport> reportFor(CapabilityDomain domain) {
        return Optional.ofNullable(reports.get(domain));
    }

    public boolean available() {
        return availability instanceof Availability.Available;
    }
}
