package io.aasm.ports.report;

import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Renders an {@link IsolationReport} in one format. Registered with {@link ReportFormatName}.
 * Output is deterministic: the same report always renders to the same text.
 */
@ConsumerType
public interface ReportRenderer {
    /** The format name, for example {@code text}, {@code kv} or {@code json}. */
    String format();

    String render(IsolationReport report);

    /** A published schema of the output (JSON Schema for {@code json}), if any. */
    default Optional<String> schema() {
        return Optional.empty();
    }
}
