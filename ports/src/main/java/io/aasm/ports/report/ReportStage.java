package io.aasm.ports.report;

import io.aasm.ports.capability.Token;

/** When the report was made. */
public enum ReportStage implements Token {
    PRE_LAUNCH("pre_launch"),
    POST_RUN("post_run");

    private final String token;

    ReportStage(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
