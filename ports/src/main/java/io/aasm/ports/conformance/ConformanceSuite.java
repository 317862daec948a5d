package io.aasm.ports.conformance;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Runs the hostile-agent catalogue on this host against installed backends and judges every cell
 * against the effect and the launch's reports. Thread-safe, but a run takes minutes and launches real
 * programs: callers run one at a time.
 */
@ProviderType
public interface ConformanceSuite {
    /** Backend id of the suite's control column: no boundary at all. Always runnable, always run first. */
    String NONE = "none";

    /** The columns a run can have: {@link #NONE} and every backend installed now, by id. */
    List<String> backends();

    /** The scenario families, by name ({@code domains}, {@code surroundings}, …). */
    List<String> families();

    /**
     * Runs one family (or every one) against one backend and {@link #NONE} (or every column of
     * {@link #backends()}). {@code progress} receives one line per cell as it is decided.
     *
     * @throws IllegalArgumentException for a backend or family not listed above (callers check first)
     * @throws IOException when the results cannot be written
     */
    ConformanceRun run(Optional<String> backend, Optional<String> family, Consumer<String> progress)
            throws IOException, InterruptedException;
}
