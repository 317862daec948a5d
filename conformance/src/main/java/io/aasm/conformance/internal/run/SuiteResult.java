package io.aasm.conformance.internal.run;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Every verdict of one suite run, scenario by backend, with the host it ran on. */
public record SuiteResult(Instant started, Duration elapsed, String host, List<String> backends,
                          List<String> scenarios, List<Verdict> verdicts) {
    public static final String SCHEMA = "aasm.conformance.results/1";

    public SuiteResult {
        Objects.requireNonNull(started);
        Objects.requireNonNull(elapsed);
        Objects.requireNonNull(host);
        backends = List.copyOf(backends);
        scenarios = List.copyOf(scenarios);
        verdicts = List.copyOf(verdicts);
    }

    public List<Verdict> of(String backend) {
        return verdicts.stream().filter(v -> v.backend().equals(backend)).toList();
    }

    public Map<Outcome, Integer> counts(String backend) {
        Map<Outcome, Integer> m = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            m.put(o, 0);
        }
        of(backend).forEach(v -> m.merge(v.outcome(), 1, Integer::sum));
        return m;
    }

    public List<Verdict> failures() {
        return verdicts.stream().filter(Verdict::fails).toList();
    }

    public boolean passed() {
        return failures().isEmpty();
    }
}
