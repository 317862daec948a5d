package io.aasm.kernel.internal.transport;

import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import java.util.EnumMap;
import java.util.Map;

/**
 * A mediated launch can only run on a backend whose plan carries the mediation: for any other, its network
 * egress row is unsupported for this launch, so negotiation refuses it (or, posture permitting, records the
 * requirement unmet) and the walk moves on. Its own egress enforcement is not a substitute: the grants would be
 * enforced by other means while the program's proxy variables led nowhere.
 */
public final class TransportFit {
    private TransportFit() {
    }

    public static BackendCapabilities narrow(ExecutionSpec spec, String backendId, BackendPlan plan,
                                             BackendCapabilities caps) {
        if (!spec.transport().mediated() || !caps.available()) {
            return caps;
        }
        Guarded<Boolean> relays = Guarded.call("plan().relaysTransport()", plan::relaysTransport);
        if (relays instanceof Guarded.Ok<Boolean> ok && Boolean.TRUE.equals(ok.value())) {
            return caps;
        }
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        reports.putAll(caps.reports());
        reports.put(CapabilityDomain.NETWORK_EGRESS, CapabilityReport.unsupported(CapabilityDomain.NETWORK_EGRESS,
                "the `" + backendId + "` backend cannot carry transport mediation for this launch: its boundary gives "
                        + "the program no route through the supervisor's proxy (switch transport mediation off for "
                        + "this launch to use this backend's own egress enforcement)"));
        return new BackendCapabilities(caps.availability(), caps.platformBoundary(), reports, caps.measuredAt());
    }
}
