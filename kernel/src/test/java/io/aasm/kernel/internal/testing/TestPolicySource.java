package io.aasm.kernel.internal.testing;

import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.policy.PolicySource;
import io.aasm.ports.policy.SourceLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A policy source serving in-memory policies for file names ending in {@code .test}. */
public final class TestPolicySource implements PolicySource {

    public final Map<String, PolicyLoad> byName = new ConcurrentHashMap<>();

    public TestPolicySource with(String name, Policy policy) {
        byName.put(name, new PolicyLoad.Loaded(policy));
        return this;
    }

    public TestPolicySource rejecting(String name, String message) {
        byName.put(name, new PolicyLoad.Rejected(List.of(
                new PolicyProblem(new SourceLocation(name, 4, 7), message, "fix it"))));
        return this;
    }

    @Override
    public String format() {
        return "test";
    }

    @Override
    public boolean accepts(Path file) {
        return file.getFileName().toString().endsWith(".test");
    }

    @Override
    public PolicyLoad load(Path file) {
        return byName.getOrDefault(file.toString(), new PolicyLoad.Rejected(List.of(
                new PolicyProblem(new SourceLocation(file.toString(), 0, 0), "no such test policy", ""))));
    }

    @Override
    public PolicyLoad parse(String origin, String text) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<String> jsonSchema() {
        return Optional.empty();
    }
}
