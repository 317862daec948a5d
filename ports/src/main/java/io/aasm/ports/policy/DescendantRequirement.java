package io.aasm.ports.policy;

import io.aasm.ports.capability.Token;

/** Which processes a requirement must cover. */
public enum DescendantRequirement implements Token {
    PROCESS_TREE("process_tree"),
    TARGET_PROCESS_ONLY("target_process_only");

    private final String token;

    DescendantRequirement(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
