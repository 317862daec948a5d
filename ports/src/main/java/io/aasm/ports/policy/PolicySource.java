package io.aasm.ports.policy;

import java.nio.file.Path;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A policy format. Implementations are registered as services with the component property type
 * {@link PolicyFormat}; the kernel picks one by file name. Implementations must be thread-safe and
 * must never throw for bad input: every problem becomes a {@link PolicyProblem} with its location.
 */
@ConsumerType
public interface PolicySource {
    /** Short format name, for example {@code yaml}. */
    String format();

    /** Whether this source reads the given file (by name; no I/O). */
    boolean accepts(Path file);

    /** Reads and validates a policy file. I/O failures are problems too (location line 0). */
    PolicyLoad load(Path file);

    /** Validates policy text; {@code origin} names it in problem locations. */
    PolicyLoad parse(String origin, String text);

    /** The JSON Schema of the format, if it publishes one. */
    Optional<String> jsonSchema();
}
