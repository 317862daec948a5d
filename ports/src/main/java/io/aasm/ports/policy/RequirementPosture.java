package io.aasm.ports.policy;

import io.aasm.ports.capability.Token;

/** What happens when a requirement cannot be met: refuse, record and proceed, or proceed degraded. */
public enum RequirementPosture implements Token {
    REQUIRED("required"),
    OPTIONAL("optional"),
    DEGRADE("degrade");

    private final String token;

    RequirementPosture(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }

    public static java.util.Optional<RequirementPosture> fromToken(String token) {
        for (RequirementPosture p : values()) {
            if (p.token.equals(token)) {
                return java.util.Optional.of(p);
            }
        }
        return java.util.Optional.empty();
    }
}
