package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.util.Objects;

/**
 * One hostile-agent scenario: a stable name (pinned in .ci/conformance-scenarios.txt), the domain
 * whose prevention claim it checks, what the attacker tries, and how to stage it on a bench.
 */
public record Scenario(String name, CapabilityDomain domain, String summary, Stager stager) {
    public Scenario {
        Objects.requireNonNull(name);
        Objects.requireNonNull(domain);
        Objects.requireNonNull(summary);
        Objects.requireNonNull(stager);
        if (!name.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("scenario names are lower-case words joined by dashes: " + name);
        }
    }

    @FunctionalInterface
    public interface Stager {
        Staging stage(Bench bench) throws IOException;
    }
}
