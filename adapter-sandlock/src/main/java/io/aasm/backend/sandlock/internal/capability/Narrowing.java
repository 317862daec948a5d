package io.aasm.backend.sandlock.internal.capability;

import io.aasm.backend.sandlock.internal.lower.AbsentLowering;
import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.backend.sandlock.internal.lower.OwnPaths;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.util.EnumMap;
import java.util.Map;

/**
 * Capabilities for one launch: a domain whose stated scope sandlock cannot express becomes
 * unsupported; a domain the policy does not state is described as what sandlock was told for it (the
 * flags that leave it open) and what sandlock restricts there anyway, so the report row says it.
 */
public final class Narrowing {
    private Narrowing() {
    }

    /** {@code own}: aasm's paths and this backend's state, which no write grant may cover or lie inside. */
    public static BackendCapabilities narrow(BackendCapabilities base, ExecutionSpec spec, RequirementLowerer lowerer,
                                             ProbeResults probes, CapabilityCatalog.Teardown teardown, OwnPaths own) {
        if (!base.available()) {
            return base;
        }
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        reports.putAll(base.reports());
        for (ControlRequirement r : spec.requirements()) {
            DomainLowering l = lowerer.lower(r, own);
            if (l instanceof DomainLowering.Inexpressible x) {
                reports.put(r.domain(), CapabilityReport.unsupported(r.domain(), x.reason()));
            } else if (r.domain() == CapabilityDomain.RESOURCE && r.scope() instanceof Scope.Limits lim
                    && !(reports.get(r.domain()).support() instanceof SupportLevel.Unsupported)) {
                // a wall clock relies on the teardown: its check is then one made by this process
                reports.put(r.domain(), CapabilityCatalog.resource(probes,
                        lim.maxWallClockSeconds().isPresent() ? teardown.forLaunch() : teardown,
                        lim.maxMemoryBytes().isPresent(),
                        lim.maxOpenFiles().isPresent(), lim.maxWallClockSeconds().isPresent()));
            }
        }
        for (AbsentLowering.Absent a : AbsentLowering.lower(spec.requirements(), own)) {
            CapabilityReport was = reports.get(a.domain());
            String mechanism = "not stated; sandlock was told: " + String.join("; ", a.steps());
            SupportLevel support = a.residual().isEmpty() ? new SupportLevel.Full()
                    : new SupportLevel.Partial(a.residual());
            reports.put(a.domain(), was == null || was.support() instanceof SupportLevel.Unsupported
                    ? new CapabilityReport(a.domain(), io.aasm.ports.capability.Mediation.NONE,
                            io.aasm.ports.capability.DecisionTiming.NONE, io.aasm.ports.capability.Synchrony.NONE,
                            io.aasm.ports.capability.FailurePosture.NOT_APPLICABLE,
                            io.aasm.ports.capability.DescendantCoverage.UNMEASURED, support,
                            java.util.List.of(), mechanism)
                    : new CapabilityReport(a.domain(), was.mediation(), was.timing(), was.synchrony(),
                            was.failurePosture(), was.descendants(), support, was.prerequisites(), mechanism));
        }
        return new BackendCapabilities(base.availability(), base.platformBoundary(), reports, base.measuredAt());
    }
}
