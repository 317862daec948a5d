package io.aasm.backend.sandlock.internal.capability;

import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.util.EnumMap;
import java.util.Map;

/** Capabilities for one launch: a domain whose stated scope sandlock cannot express becomes unsupported. */
public final class Narrowing {
    private Narrowing() {
    }

    public static BackendCapabilities narrow(BackendCapabilities base, ExecutionSpec spec, RequirementLowerer lowerer,
                                             ProbeResults probes, CapabilityCatalog.Teardown teardown) {
        if (!base.available()) {
            return base;
        }
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        reports.putAll(base.reports());
        for (ControlRequirement r : spec.requirements()) {
            DomainLowering l = lowerer.lower(r);
            if (l instanceof DomainLowering.Inexpressible x) {
                reports.put(r.domain(), CapabilityReport.unsupported(r.domain(), x.reason()));
            } else if (r.domain() == CapabilityDomain.RESOURCE && r.scope() instanceof Scope.Limits lim
                    && !(reports.get(r.domain()).support() instanceof io.aasm.ports.capability.SupportLevel.Unsupported)) {
                reports.put(r.domain(), CapabilityCatalog.resource(probes, teardown, lim.maxMemoryBytes().isPresent(),
                        lim.maxOpenFiles().isPresent(), lim.maxWallClockSeconds().isPresent()));
            }
        }
        return new BackendCapabilities(base.availability(), base.platformBoundary(), reports, base.measuredAt());
    }
}
