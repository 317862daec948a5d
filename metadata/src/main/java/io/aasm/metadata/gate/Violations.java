package io.aasm.metadata.gate;

import java.util.ArrayList;
import java.util.List;

/** Collects every violation so one run lists them all instead of stopping at the first. */
final class Violations {
    private final List<String> messages = new ArrayList<>();

    void add(String message) {
        messages.add(message);
    }

    List<String> all() {
        return List.copyOf(messages);
    }

    boolean isEmpty() {
        return messages.isEmpty();
    }
}
