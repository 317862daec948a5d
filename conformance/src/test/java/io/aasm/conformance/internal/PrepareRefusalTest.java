package io.aasm.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.conformance.internal.catalogue.Catalogue;
import io.aasm.conformance.internal.run.Outcome;
import io.aasm.conformance.internal.run.SuiteResult;
import io.aasm.conformance.internal.run.SuiteRunner;
import io.aasm.conformance.internal.run.Verdict;
import io.aasm.kernel.internal.service.KernelComponent;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.backend.EnforcementPlan;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A backend that declines to install the boundary when it prepares the launch (after the kernel decided)
 * refused the launch before anything started: judged refused-before-launch, never cannot-host.
 */
class PrepareRefusalTest {
    /** The liar's claims, but every launch refused while preparing it. */
    static final class Refusing implements IsolationBackend {
        private final LyingBackend claims = new LyingBackend();

        @Override
        public BackendIdentity identity() {
            return claims.identity();
        }

        @Override
        public BackendCapabilities capabilities() {
            return claims.capabilities();
        }

        @Override
        public BackendCapabilities refreshCapabilities() {
            return claims.refreshCapabilities();
        }

        @Override
        public BackendPlan plan(ExecutionSpec spec) {
            return claims.plan(spec);
        }

        @Override
        public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "write grant lies inside aasm's own state");
        }
    }

    @Test
    void aBoundaryRefusedWhilePreparingIsARefusalBeforeLaunch() throws Exception {
        KernelComponent kernel = Components.kernel();
        Components.bind(kernel, LyingBackend.ID, new Refusing());
        SuiteResult r = new SuiteRunner(kernel).run(List.of(LyingBackend.ID), Catalogue.all().stream()
                .filter(s -> s.name().equals("fs-read-absolute")).toList(), v -> { });
        Verdict v = r.verdicts().get(0);
        assertEquals(Outcome.REFUSED_BEFORE_LAUNCH, v.outcome(), v.detail());
        assertTrue(v.detail().contains("inside aasm's own state"), v.detail());
        assertFalse(v.fails());
    }
}
