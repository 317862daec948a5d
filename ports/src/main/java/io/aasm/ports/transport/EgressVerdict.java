package io.aasm.ports.transport;

import io.aasm.ports.capability.Token;

/** What a mediation session decided about one connection attempt. */
public enum EgressVerdict implements Token {
    /** A grant matched: the session dialled the destination (the record says whether that succeeded). */
    ALLOWED("allowed"),
    /** Nothing was dialled: no grant matched, the destination was refused, or the request was not understood. */
    DENIED("denied");

    private final String token;

    EgressVerdict(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
