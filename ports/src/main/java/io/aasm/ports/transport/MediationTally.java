package io.aasm.ports.transport;

/** Totals over every connection attempt of a session that is over, including records not kept in memory. */
public record MediationTally(long allowed, long denied, long bytesUp, long bytesDown) {
    public MediationTally {
        if (allowed < 0 || denied < 0 || bytesUp < 0 || bytesDown < 0) {
            throw new IllegalArgumentException("negative tally");
        }
    }

    public long attempts() {
        return allowed + denied;
    }
}
