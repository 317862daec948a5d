package io.aasm.support.canary;

/**
 * What one canary met inside the boundary, as the inside reported it.
 *
 * @param errno the error the attempt failed with; 0 when it went through
 */
public record CanaryVerdict(Outcome outcome, int errno) {
    public CanaryVerdict {
        if (errno < 0 || errno > 9999) {
            throw new IllegalArgumentException("errno out of range: " + errno);
        }
    }

    /** The three words of the line. */
    public enum Outcome {
        /** Refused the way this boundary refuses that domain. */
        DENIED("denied"),
        /** Not refused: the boundary does not hold what the plan claims. */
        PASSED("passed"),
        /** Failed, but not as this boundary's denial: proves nothing either way. */
        ERROR("error");

        private final String word;

        Outcome(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }

        static java.util.Optional<Outcome> ofWord(String w) {
            for (Outcome o : values()) {
                if (o.word.equals(w)) {
                    return java.util.Optional.of(o);
                }
            }
            return java.util.Optional.empty();
        }
    }

    public static CanaryVerdict denied(int errno) {
        return new CanaryVerdict(Outcome.DENIED, errno);
    }

    public static CanaryVerdict passed() {
        return new CanaryVerdict(Outcome.PASSED, 0);
    }
}
