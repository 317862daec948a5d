package io.aasm.ports.policy;

import io.aasm.ports.capability.Token;

/** IPC channels a policy can grant beyond the confined tree. */
public enum IpcChannel implements Token {
    ABSTRACT_UNIX("abstract_unix"),
    SIGNAL("signal"),
    SYSV("sysv");

    private final String token;

    IpcChannel(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
