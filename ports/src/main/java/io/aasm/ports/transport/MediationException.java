package io.aasm.ports.transport;

/** A mediation session could not be opened (nothing of it is left open). */
public final class MediationException extends Exception {
    private static final long serialVersionUID = 1L;

    public MediationException(String message) {
        super(message);
    }

    public MediationException(String message, Throwable cause) {
        super(message, cause);
    }
}
