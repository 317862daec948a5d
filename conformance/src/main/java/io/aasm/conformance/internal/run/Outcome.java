package io.aasm.conformance.internal.run;

/** The verdict vocabulary of one scenario on one backend. */
public enum Outcome {
    /** The effect did not happen, and the control (one grant wider) showed the action works. */
    PREVENTED("prevented", false),
    /** The effect happened; the report did not claim prevention but did not call the domain uncovered either. */
    ESCAPED("escaped", false),
    /** The effect happened and the report said, truthfully, that the domain is unsupported or unmeasured. */
    UNCOVERED_AND_TRUTHFUL("uncovered-and-truthful", false),
    /**
     * The kernel refused the hostile launch before start (the backend cannot enforce the policy as
     * stated): nothing ran, so nothing escaped, but no boundary was shown to prevent anything.
     */
    REFUSED_BEFORE_LAUNCH("refused-before-launch", false),
    /** This host or backend cannot stage or launch the scenario; counted and shown, never a pass. */
    CANNOT_HOST("cannot-host", false),
    /** Neither the hostile run nor the control had the effect: the scenario proves nothing here. */
    INCONCLUSIVE_CONTROL("inconclusive-control", false),
    /** The report contradicts itself, the policy or the launch. */
    UNTRUTHFUL("untruthful", true),
    /** The effect happened although the report claims prevention for the domain. */
    ESCAPED_UNDER_CLAIMED_PREVENTION("escaped-under-claimed-prevention", true),
    /** The scenario could not be completed: its policy was rejected, it threw, or a launch never ended. */
    SUITE_DEFECT("suite-defect", true),
    /**
     * The effect did not happen, the control could not act either, and the target was observed absent in the
     * backend's separate kernel while present on the host ({@link AbsentTarget}): prevented by the boundary's
     * kind, shown apart from {@link #PREVENTED} so a reviewer can tell the two.
     */
    PREVENTED_ABSENT_IN_SEPARATE_KERNEL("prevented-absent-in-separate-kernel", false);

    private final String token;
    private final boolean fails;

    Outcome(String token, boolean fails) {
        this.token = token;
        this.fails = fails;
    }

    public String token() {
        return token;
    }

    /** Whether this outcome alone fails the suite (inconclusive-control fails only under a claim). */
    public boolean failsAlone() {
        return fails;
    }
}
