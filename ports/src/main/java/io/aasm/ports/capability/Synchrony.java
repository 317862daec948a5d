package io.aasm.ports.capability;

/** Whether the decision blocks the action until it is made. */
public enum Synchrony implements Token {
    SYNC("sync"),
    BEST_EFFORT("best_effort"),
    NONE("none");

    private final String token;

    Synchrony(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
