package io.aasm.ports.capability;

/** When a decision happens relative to the effect. */
public enum DecisionTiming implements Token {
    PRE("pre"),
    IN_LINE("in_line"),
    POST("post"),
    NONE("none");

    private final String token;

    DecisionTiming(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
