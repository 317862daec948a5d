package io.aasm.cli.boot;

/**
 * aasm cannot start safely (an unusable cache directory, a path it cannot protect); the message names
 * the problem and is printed as it is, exit 125, nothing started.
 */
final class CannotStart extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CannotStart(String message) {
        super(message, null, false, false);
    }
}
