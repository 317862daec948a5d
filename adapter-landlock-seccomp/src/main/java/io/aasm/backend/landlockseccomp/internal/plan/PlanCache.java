package io.aasm.backend.landlockseccomp.internal.plan;

import io.aasm.backend.landlockseccomp.internal.lower.Lowerer;
import io.aasm.backend.landlockseccomp.internal.lower.Lowering;
import io.aasm.backend.landlockseccomp.internal.lower.PathFacts;
import io.aasm.backend.landlockseccomp.internal.lower.PathReads;
import io.aasm.backend.landlockseccomp.internal.lower.RecordedReads;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.BackendCapabilities;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The backend's plan (capabilities narrowed to the launch, and its lowering) kept per {@link PlanKey}, with the
 * filesystem answers it was decided from ({@link PathFacts}). A kept plan is used only when every one of those
 * answers is the same again, asked of the kernel on this call; otherwise it is dropped and the plan made afresh.
 * Nothing per launch is kept: cgroups, generated files, canary witnesses and the wire message are made by
 * {@code Launches.prepare} from the plan, every time. At most {@value #CAPACITY} plans, least recently used out.
 * {@code -D}{@value #PROPERTY}{@code =false} makes every plan afresh (for paired measurement).
 */
public final class PlanCache {
    public static final String PROPERTY = "aasm.native.planCache";
    static final int CAPACITY = 64;

    /** What the backend's {@code plan} decides for one call. */
    public record Planned(BackendCapabilities capabilities, Optional<Lowering> lowering) {
        /** The same decision for another call with the same key: the copied parts taken from {@code spec}. */
        Planned forCall(ExecutionSpec spec) {
            return new Planned(capabilities, lowering.map(l -> l instanceof Lowering.Lowered ok
                    ? new Lowering.Lowered(ok.plan().forCall(spec.program(), argv(spec),
                    Lowerer.environment(spec, spec.requirements()))) : l));
        }

        private static List<String> argv(ExecutionSpec spec) {
            List<String> argv = new ArrayList<>();
            argv.add(spec.program());
            argv.addAll(spec.args());
            return argv;
        }
    }

    /** The fresh plan, every filesystem question asked through {@code reads}. */
    @FunctionalInterface
    public interface Planner {
        Planned plan(ExecutionSpec spec, PathReads reads);
    }

    private record Entry(Planned planned, PathFacts facts) {
    }

    private final Map<PlanKey, Entry> entries = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PlanKey, Entry> eldest) {
            return size() > CAPACITY;
        }
    });
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder stale = new LongAdder();

    /** Whether plans are kept: the system property, read on every call so one JVM can measure both ways. */
    public static boolean enabled() {
        String v = System.getProperty(PROPERTY);
        if (v == null || v.equals("true")) {
            return true;
        }
        if (v.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException(PROPERTY + " must be 'true' or 'false', not '" + v + "'");
    }

    /**
     * The plan of {@code spec}: a kept one whose filesystem answers still hold, or {@code fresh}'s. {@code generation}
     * names the measured capabilities the plan is narrowed from; a plan made while they changed is not kept.
     */
    public Planned plan(ExecutionSpec spec, LongSupplier generation, Planner fresh) {
        if (!enabled()) {
            return fresh.plan(spec, PathReads.DIRECT);
        }
        long before = generation.getAsLong();
        PlanKey key = PlanKey.of(spec, before);
        Entry kept = entries.get(key);
        if (kept != null) {
            if (kept.facts().stillHold()) {
                hits.increment();
                return kept.planned().forCall(spec);
            }
            entries.remove(key, kept);
            stale.increment();
        }
        misses.increment();
        RecordedReads reads = new RecordedReads();
        Planned planned = fresh.plan(spec, reads);
        if (planned.lowering().isPresent() && reads.complete() && generation.getAsLong() == before) {
            entries.put(key, new Entry(planned, reads.facts()));
        }
        return planned;
    }

    /** Calls answered from a kept plan. */
    public long hits() {
        return hits.sum();
    }

    /** Calls planned afresh while the cache was on (stale ones included). */
    public long misses() {
        return misses.sum();
    }

    /** Kept plans dropped because a filesystem answer had changed. */
    public long stale() {
        return stale.sum();
    }

    public int size() {
        return entries.size();
    }

    /** The filesystem questions the kept plans ask again when used, in all (each plan's: its validation's cost). */
    public int questions() {
        synchronized (entries) {
            return entries.values().stream().mapToInt(e -> e.facts().size()).sum();
        }
    }
}
