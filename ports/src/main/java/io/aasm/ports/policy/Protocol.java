package io.aasm.ports.policy;

import io.aasm.ports.capability.Token;

/** Transport protocol of an egress grant. */
public enum Protocol implements Token {
    TCP("tcp"),
    UDP("udp");

    private final String token;

    Protocol(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
