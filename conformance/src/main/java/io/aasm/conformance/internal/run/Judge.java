package io.aasm.conformance.internal.run;

import io.aasm.conformance.internal.catalogue.Scenario;
import io.aasm.conformance.internal.catalogue.Staged;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a hostile trial (and, when needed, its control) into a verdict. The control runs only when
 * the hostile run had no effect: an effect that happened needs no proof that the action works.
 */
final class Judge {
    private Judge() {
    }

    @FunctionalInterface
    interface ControlRun {
        Trial run() throws IOException, InterruptedException;
    }

    static Verdict judge(Scenario sc, String backend, Staged staged, Trial hostile, ControlRun control)
            throws IOException, InterruptedException {
        return judge(sc, backend, staged, hostile, control, false);
    }

    /**
     * {@code worksUnconfined}: the same action escaped under {@code none} in this run, so a permission
     * denial of its critical step on this backend is the backend's doing, not the host's (a host
     * policy such as Yama's ptrace scope would deny it under {@code none} too).
     */
    static Verdict judge(Scenario sc, String backend, Staged staged, Trial hostile, ControlRun control,
                         boolean worksUnconfined) throws IOException, InterruptedException {
        return judge(sc, backend, staged, hostile, control, worksUnconfined, false, onHost -> {
            throw new IllegalStateException("no absence probe for " + sc.name());
        });
    }

    /**
     * {@code separateKernel}: the backend's platform boundary is a separate kernel; {@code absence} runs the
     * scenario's absence probe ({@link AbsentTarget}), asked only for a host-only target whose control had no
     * effect.
     */
    static Verdict judge(Scenario sc, String backend, Staged staged, Trial hostile, ControlRun control,
                         boolean worksUnconfined, boolean separateKernel, AbsentTarget.ProbeRun absence)
            throws IOException, InterruptedException {
        CapabilityDomain d = sc.domain();
        if (hostile instanceof Trial.Rejected r) {
            return verdict(sc, backend, Outcome.SUITE_DEFECT, "the scenario's policy was rejected: " + r.problems(), "-",
                    false);
        }
        if (hostile instanceof Trial.Hung hung) {
            return verdict(sc, backend, Outcome.SUITE_DEFECT, hung.why(), "-", false);
        }
        if (hostile instanceof Trial.Refused r) {
            // A refusal is honest (the action never ran), but it is not a prevention by a boundary: say so.
            return verdict(sc, backend, Outcome.REFUSED_BEFORE_LAUNCH, "nothing launched, so the action is absent; "
                    + "no boundary was exercised: " + r.why(), "-", false);
        }
        if (hostile instanceof Trial.NotLaunched n) {
            return verdict(sc, backend, Outcome.CANNOT_HOST, n.why(), "-", false);
        }
        Trial.Ran h = (Trial.Ran) hostile;
        boolean claims = Truth.claimsPrevention(h.pre(), d) || Truth.claimsPrevention(h.post(), d);
        String claim = Truth.claim(h.post(), d);
        List<String> lies = new ArrayList<>(Truth.violations(h.pre(), h.post(), backend, d));
        lies.addAll(staged.audit().contradictions(h.post()));
        if (!lies.isEmpty()) {
            return verdict(sc, backend, Outcome.UNTRUTHFUL, String.join("; ", lies) + " [effect: "
                    + h.effect().evidence() + "]", claim, claims);
        }
        if (h.effect().happened()) {
            Outcome o = claims ? Outcome.ESCAPED_UNDER_CLAIMED_PREVENTION
                    : Truth.saysUncovered(h.post(), d) ? Outcome.UNCOVERED_AND_TRUTHFUL : Outcome.ESCAPED;
            List<String> limits = h.post().row(d).limitations();
            String known = o == Outcome.ESCAPED_UNDER_CLAIMED_PREVENTION && !limits.isEmpty()
                    ? " [the report's own limitations for " + d.token() + ": " + String.join("; ", limits) + "]" : "";
            return verdict(sc, backend, o, h.effect().evidence() + known, claim, claims);
        }
        String denied = firstLine(h.diagnostics());
        if (h.effect().actionShown()) {
            return verdict(sc, backend, Outcome.PREVENTED, h.effect().evidence(), claim, claims);
        }
        Trial c = control.run();
        if (c instanceof Trial.Ran cr && cr.effect().happened()) {
            return verdict(sc, backend, Outcome.PREVENTED, h.effect().evidence() + " (" + denied + "); control ["
                    + staged.controlGrant() + "]: " + cr.effect().evidence(), claim, claims);
        }
        java.util.Optional<String> both = c instanceof Trial.Ran cr ? staged.denialSignatures().stream()
                .filter(sig -> cr.diagnostics().contains(sig) && h.diagnostics().contains(sig)).findFirst()
                : java.util.Optional.empty();
        if (worksUnconfined && both.isPresent()) {
            return verdict(sc, backend, Outcome.PREVENTED, h.effect().evidence() + "; denied irrespective of the grant"
                    + " (control [" + staged.controlGrant() + "] also failed with '" + both.get()
                    + "'; the same action escaped under none on this host)", claim, claims);
        }
        java.util.Optional<String> hostileOnly = staged.denialSignatures().stream()
                .filter(sig -> h.diagnostics().contains(sig)).findFirst();
        if (c instanceof Trial.Refused cr && worksUnconfined && hostileOnly.isPresent()) {
            // The backend will not grant the widening at all, so the denial the hostile run met cannot depend on it.
            return verdict(sc, backend, Outcome.PREVENTED, h.effect().evidence() + "; denied irrespective of the grant"
                    + " (the hostile run failed with '" + hostileOnly.get() + "'; the backend refuses the"
                    + " control's grant [" + staged.controlGrant() + "] before launch: " + firstLine(cr.why())
                    + "; the same action escaped under none on this host)", claim, claims);
        }
        String why = c instanceof Trial.Ran cr ? "control [" + staged.controlGrant() + "] had no effect either: "
                + cr.effect().evidence() + " (" + firstLine(cr.diagnostics()) + ")"
                : c instanceof Trial.NotLaunched n ? "control [" + staged.controlGrant() + "] not launched: " + n.why()
                : c instanceof Trial.Refused n ? "control [" + staged.controlGrant() + "] refused before launch: " + n.why()
                : c instanceof Trial.Hung hung ? "control [" + staged.controlGrant() + "] hung: " + hung.why()
                : "control policy rejected: " + ((Trial.Rejected) c).problems();
        if (staged.hostOnly().isPresent() && c instanceof Trial.Ran) {
            AbsentTarget.Finding f = AbsentTarget.judge(staged.hostOnly().get(), separateKernel, absence);
            if (f.proven()) {
                return verdict(sc, backend, Outcome.PREVENTED_ABSENT_IN_SEPARATE_KERNEL, h.effect().evidence() + "; "
                        + why + "; " + f.detail(), claim, claims);
            }
            why = why + "; " + f.detail();
        }
        return verdict(sc, backend, Outcome.INCONCLUSIVE_CONTROL, h.effect().evidence() + "; " + why, claim, claims);
    }

    static Verdict verdict(Scenario sc, String backend, Outcome o, String detail, String claim, boolean claims) {
        return new Verdict(sc.name(), sc.domain().token(), backend, o, detail.replace('\n', ' '), claim, claims);
    }

    static String firstLine(String s) {
        String line = s.lines().filter(l -> !l.isBlank()).findFirst().orElse("no diagnostics");
        return line.length() > 160 ? line.substring(0, 160) + "…" : line;
    }
}
