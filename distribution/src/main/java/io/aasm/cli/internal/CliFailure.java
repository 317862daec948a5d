package io.aasm.cli.internal;

/**
 * A command could not do its job for a reason the user must read (no kernel, bad flag value, unknown
 * renderer). Carries the exit status; the command line prints the message and returns the status.
 */
final class CliFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    CliFailure(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }
}
