package io.aasm.ports.policy;

import io.aasm.ports.capability.Token;

/** What a requirement wants: prevention before the effect, or observation. */
public enum RequirementIntent implements Token {
    PREVENT_BEFORE_EFFECT("prevent_before_effect"),
    OBSERVE("observe");

    private final String token;

    RequirementIntent(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
