package io.aasm.ports.policy;

import io.aasm.ports.capability.Token;

/** Whether a syscall list names what is permitted or what is denied. */
public enum SyscallMode implements Token {
    ALLOW("allow"),
    DENY("deny");

    private final String token;

    SyscallMode(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
