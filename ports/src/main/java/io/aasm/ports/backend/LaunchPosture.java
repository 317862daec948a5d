package io.aasm.ports.backend;

import io.aasm.ports.capability.Token;

/** The posture of a plan that will launch. A refused launch has no plan. */
public enum LaunchPosture implements Token {
    READY("ready"),
    DEGRADED("degraded");

    private final String token;

    LaunchPosture(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
