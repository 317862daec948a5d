package io.aasm.ports.kernel;

import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.report.ReportRenderer;
import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The kernel as front ends see it. Decisions are values: a refusal is a {@link LaunchDecision},
 * never an exception. Thread-safe; backends, policy sources and renderers may come and go at any
 * time (hot deploy), and each call uses a snapshot of what is installed.
 */
@ProviderType
public interface IsolationKernel {
    /** Loads, validates and lowers a policy file. */
    PolicyCheck checkPolicy(String policyFile);

    /** Resolves policy, selects a backend and negotiates; executes nothing (also serves dry runs). */
    LaunchDecision decide(LaunchRequest request);

    /**
     * Launches a {@link LaunchDecision.Confined} or {@link LaunchDecision.Unconfined} decision.
     * A failure before the program started is a {@link LaunchException}; nothing keeps running.
     */
    LaunchSession launch(LaunchDecision decision) throws LaunchException;

    /** Every installed backend with its identity and capabilities on this host. */
    List<BackendStatus> backends();

    /** Runs (or, without refresh, reads cached) capability probes of one backend. */
    Optional<BackendStatus> probe(String backendId, boolean refresh);

    /** A renderer by format name ({@code text}, {@code kv}, {@code json}, …). */
    Optional<ReportRenderer> renderer(String format);

    /** The ordered candidate list of the {@code auto} walk, as configured. */
    List<String> autoWalkOrder();
}
