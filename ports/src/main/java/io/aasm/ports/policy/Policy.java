package io.aasm.ports.policy;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A parsed, validated policy: at most one statement per domain, the isolation class it states (if
 * any), and statements no capability domain can carry ({@code unmapped}, reported, never dropped).
 */
public record Policy(
        String origin,
        Optional<IsolationClass> isolation,
        Map<CapabilityDomain, PolicyStatement> statements,
        List<String> unmapped) {

    public Policy {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(isolation, "isolation");
        EnumMap<CapabilityDomain, PolicyStatement> copy = new EnumMap<>(CapabilityDomain.class);
        statements.forEach((d, s) -> {
            if (s.domain() != d) {
                throw new IllegalArgumentException("statement for " + s.domain().token() + " filed under " + d.token());
            }
            copy.put(d, s);
        });
        statements = Collections.unmodifiableMap(copy);
        unmapped = List.copyOf(unmapped);
    }

    /** The policy that states nothing (used when no policy file is given). */
    public static Policy empty(String origin) {
        return new Policy(origin, Optional.empty(), Map.of(), List.of());
    }

    public Optional<PolicyStatement> statement(CapabilityDomain domain) {
        return Optional.ofNullable(statements.get(domain));
    }
}
