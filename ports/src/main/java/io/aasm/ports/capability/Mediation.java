package io.aasm.ports.capability;

/** Whether the backend decides (enforce), only watches (observe), or does nothing for a domain. */
public enum Mediation implements Token {
    ENFORCE("enforce"),
    OBSERVE("observe"),
    NONE("none");

    private final String token;

    Mediation(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
