package io.aasm.ports.capability;

/** What happens to the action when the mechanism itself fails. */
public enum FailurePosture implements Token {
    FAIL_CLOSED("fail_closed"),
    FAIL_OPEN("fail_open"),
    FAIL_OPEN_SILENT("fail_open_silent"),
    SILENT_TRUNCATION("silent_truncation"),
    NOT_APPLICABLE("not_applicable");

    private final String token;

    FailurePosture(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
