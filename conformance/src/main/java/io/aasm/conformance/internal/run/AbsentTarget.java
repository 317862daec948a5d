package io.aasm.conformance.internal.run;

import io.aasm.conformance.internal.catalogue.Staged;
import java.io.IOException;

/**
 * The judge rule for a target that exists only on the host (docs/conformance.md, "Absent in a separate
 * kernel"). A cell whose control had no effect may count as prevented only when all three hold: the backend's
 * platform boundary is a separate kernel, the scenario declares its target host-only, and the scenario's probe,
 * launched under the backend with the control's policy, observed the target absent, while the same probe on
 * the host without a boundary observed it present (so the probe can see it, and an absence is not a broken
 * probe). Anything short of that leaves the cell inconclusive.
 */
final class AbsentTarget {
    private AbsentTarget() {
    }

    /** Runs the probe inside the backend ({@code onHost} false) or on the host without a boundary. */
    @FunctionalInterface
    interface ProbeRun {
        Trial run(boolean onHost) throws IOException, InterruptedException;
    }

    /** Proven: the target is absent under the backend and present on the host; else why not. */
    record Finding(boolean proven, String detail) {
    }

    static Finding judge(Staged.HostOnly target, boolean separateKernel, ProbeRun probe)
            throws IOException, InterruptedException {
        if (!separateKernel) {
            return new Finding(false, "the target is host-only, but this backend's platform boundary is not a separate"
                    + " kernel");
        }
        Trial inside = probe.run(false);
        if (!(inside instanceof Trial.Ran in) || !in.diagnostics().contains(Staged.HostOnly.ABSENT)
                || in.diagnostics().contains(Staged.HostOnly.PRESENT)) {
            return new Finding(false, "the probe for " + target.target() + " did not observe it absent under the "
                    + "backend: " + describe(inside));
        }
        Trial host = probe.run(true);
        if (!(host instanceof Trial.Ran h) || !h.diagnostics().contains(Staged.HostOnly.PRESENT)) {
            return new Finding(false, "the probe for " + target.target() + " did not observe it on the host without "
                    + "a boundary, so its absence proves nothing: " + describe(host));
        }
        return new Finding(true, target.target() + " does not exist in the backend's separate kernel (probe under the"
                + " control's policy: '" + Judge.firstLine(in.diagnostics()) + "'; the same probe on the host without a"
                + " boundary: '" + Judge.firstLine(h.diagnostics()) + "')");
    }

    private static String describe(Trial t) {
        return t instanceof Trial.Ran r ? "'" + Judge.firstLine(r.diagnostics()) + "'"
                : t instanceof Trial.Refused r ? "refused: " + Judge.firstLine(r.why())
                : t instanceof Trial.NotLaunched n ? "not launched: " + Judge.firstLine(n.why())
                : t instanceof Trial.Hung h ? "hung: " + h.why() : "policy rejected";
    }
}
