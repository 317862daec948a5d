package io.aasm.report.json.internal;

import io.aasm.ports.report.UntrustedText;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * key=value records, one per line. Values are sanitised so a record can never span lines; a
 * repeated key is a programming error, because consumers read the block into a map.
 */
final class KvLines {
    private final StringBuilder out = new StringBuilder();
    private final Set<String> keys = new HashSet<>();

    KvLines put(String key, String value) {
        if (!keys.add(key)) {
            throw new IllegalStateException("duplicate key " + key);
        }
        out.append(key).append('=').append(UntrustedText.clean(value)).append('\n');
        return this;
    }

    KvLines put(String key, long value) {
        return put(key, Long.toString(value));
    }

    KvLines put(String key, boolean value) {
        return put(key, Boolean.toString(value));
    }

    /** {@code <prefix>_count} then {@code <prefix>.<i>} for each item, counting from 0. */
    KvLines list(String countKey, String itemPrefix, List<String> items) {
        put(countKey, items.size());
        for (int i = 0; i < items.size(); i++) {
            put(itemPrefix + "." + i, items.get(i));
        }
        return this;
    }

    KvLines raw(String line) {
        out.append(line).append('\n');
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
