package io.aasm.cli.internal.wire;

/**
 * A frame that is not what wire version 1 allows (bad magic, unknown kind, oversize, truncated, too
 * slow). The message names the problem in words a user can act on; {@link #reason()} is a fixed token
 * for the kernel's request log, which never repeats what a peer sent. Whoever reads it closes the
 * connection and runs nothing.
 */
public final class FrameException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String reason;

    public FrameException(String reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    /** {@code closed}, {@code no_magic}, {@code unknown_kind}, {@code too_large}, {@code truncated}, {@code timeout}. */
    public String reason() {
        return reason;
    }
}
