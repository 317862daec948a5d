package io.aasm.backend.example.internal;

import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.backend.EnforcementPlan;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Component;

/**
 * An example backend bundle (the one used to show hot deploy): it really runs the program, with
 * ProcessBuilder and no boundary at all, and says so. Every domain is reported unsupported, so it
 * can never satisfy a requirement and the {@code auto} walk always passes over it with the reason.
 *
 * <p>The shape every backend follows: {@link #plan} answers for one launch, {@link #prepare} returns
 * the launch it prepared, spawning it returns the running execution. The backend itself holds no
 * launch; each object holds its own.
 */
@Component(service = IsolationBackend.class)
@BackendId(ExampleUnconfinedBackend.ID)
public final class ExampleUnconfinedBackend implements IsolationBackend {
    static final String ID = "example-unconfined";
    static final String UNSUPPORTED = "the example-unconfined backend runs the program without any boundary;"
            + " nothing in this domain is mediated";

    @Override
    public BackendIdentity identity() {
        return new BackendIdentity(ID, "0.1.0", new Provenance("aasm adapter-example-unconfined (this repository)",
                "Apache-2.0", false, Optional.empty(), ProvenanceStatus.FIRST_PARTY));
    }

    /** A declaration, not a measurement: nothing is probed, so there is no measurement time. */
    @Override
    public BackendCapabilities capabilities() {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            reports.put(d, CapabilityReport.unsupported(d, UNSUPPORTED));
        }
        return new BackendCapabilities(new Availability.Available(), PlatformBoundary.SHARED_HOST_KERNEL, reports,
                Optional.empty());
    }

    @Override
    public BackendCapabilities refreshCapabilities() {
        return capabilities();
    }

    /** Scopes change nothing here: every domain stays unsupported, and nothing is ever installed. */
    @Override
    public BackendPlan plan(ExecutionSpec spec) {
        return new NothingInstalled(capabilities());
    }

    @Override
    public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
        if (!(plan.spec().stdio() instanceof Stdio.Inherit)) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR,
                    "the example-unconfined backend can only hand the caller's own stdio to the program");
        }
        return new UnconfinedLaunch(plan.spec());
    }
}
