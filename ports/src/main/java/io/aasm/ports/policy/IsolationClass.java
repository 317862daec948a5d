package io.aasm.ports.policy;

import io.aasm.ports.capability.Token;

/** The backend-neutral isolation class a launch asks for. */
public enum IsolationClass implements Token {
    NONE("none"),
    AUTO("auto"),
    PROCESS("process");

    private final String token;

    IsolationClass(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }

    public static java.util.Optional<IsolationClass> fromToken(String token) {
        for (IsolationClass c : values()) {
            if (c.token.equals(token)) {
                return java.util.Optional.of(c);
            }
        }
        return java.util.Optional.empty();
    }
}
