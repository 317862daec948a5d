package io.aasm.backend.landlockseccomp.internal.launcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The denials init answered for the program (PROTOCOL.md "Decisions"): how many in all, how many per
 * syscall number, and the latest few with their first three arguments. Or why none could be recorded.
 */
public record RecordedDecisions(long total, Map<Integer, Long> counts, List<Sample> latest, Optional<String> unavailable) {
    public RecordedDecisions {
        counts = Map.copyOf(counts);
        latest = List.copyOf(latest);
    }

    public record Sample(int nr, long pid, long a0, long a1, long a2) {
    }

    /** Collects the launcher's decision lines as they arrive (the reader's thread) until asked. */
    static final class Builder {
        private long total = -1;
        private final Map<Integer, Long> counts = new LinkedHashMap<>();
        private final List<Sample> latest = new ArrayList<>();
        private String unavailable;

        synchronized void accept(String line) {
            String[] f = line.split(":");
            try {
                switch (f[0]) {
                    case "decisions" -> {
                        total = Long.parseLong(f[1]);
                        if (f.length > 2 && !f[2].isEmpty()) {
                            for (String c : f[2].split(",")) {
                                String[] kv = c.split("=");
                                counts.put(Integer.parseInt(kv[0]), Long.parseLong(kv[1]));
                            }
                        }
                    }
                    case "decision" -> latest.add(new Sample(Integer.parseInt(f[1]), Long.parseLong(f[2]),
                            Long.parseUnsignedLong(f[3]), Long.parseUnsignedLong(f[4]), Long.parseUnsignedLong(f[5])));
                    default -> unavailable = line.substring(line.indexOf(':') + 1);
                }
            } catch (RuntimeException e) {
                // a malformed line records nothing; the launcher is ours, so this only guards the parser
            }
        }

        synchronized Optional<RecordedDecisions> build() {
            if (total < 0 && unavailable == null) {
                return Optional.empty();
            }
            return Optional.of(new RecordedDecisions(Math.max(total, 0), counts, latest,
                    Optional.ofNullable(unavailable)));
        }
    }
}
