package io.aasm.cli.internal.wire;

/**
 * A frame that is not what wire version 1 allows (bad magic, unknown kind, oversize, truncated). The
 * message names the problem in words a user can act on; whoever reads it closes the connection and
 * runs nothing.
 */
public final class FrameException extends Exception {
    private static final long serialVersionUID = 1L;

    public FrameException(String message) {
        super(message, null, false, false);
    }
}
