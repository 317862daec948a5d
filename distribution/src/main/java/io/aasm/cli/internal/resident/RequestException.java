package io.aasm.cli.internal.resident;

/**
 * A run request the kernel will not parse further. The message is for the client; {@link #reason()} is
 * a fixed token for the request log, which never repeats what the client sent.
 */
final class RequestException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    RequestException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** {@code version}, {@code counts}, {@code cwd}, {@code too_many_args}, {@code too_many_env}, {@code string_too_long}. */
    String reason() {
        return reason;
    }
}
