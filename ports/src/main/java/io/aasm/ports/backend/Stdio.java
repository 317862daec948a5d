package io.aasm.ports.backend;

/** Where the program's standard streams go. */
public sealed interface Stdio {
    /** The caller's own stdin/stdout/stderr (the supervisor's, inherited). */
    record Inherit() implements Stdio {
    }

    /**
     * Descriptors the supervisor holds on the caller's behalf (for example received over a socket);
     * a backend that cannot hand them to the program must fail {@code prepare}.
     */
    record Descriptors(int stdin, int stdout, int stderr) implements Stdio {
    }
}
