package io.aasm.ports.policy;

import io.aasm.ports.capability.Token;

/** The backend-neutral isolation class a launch asks for. */
public enum IsolationClass implements Token {
    NONE("none"),
    AUTO("auto"),
    /** A confined process on the host's kernel: backends whose boundary is {@code shared_host_kernel}. */
    PROCESS("process"),
    /** A container of an engine: backends whose boundary is {@code container}. */
    CONTAINER("container"),
    /** A virtual machine with its own kernel: backends whose boundary is {@code separate_kernel}. */
    VM("vm");

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
