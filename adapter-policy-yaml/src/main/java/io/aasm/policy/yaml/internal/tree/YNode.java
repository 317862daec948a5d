package io.aasm.policy.yaml.internal.tree;

import java.util.List;
import java.util.Optional;

/**
 * A YAML node that remembers where it was written. Jackson's own tree drops locations, and every
 * problem we report must carry file:line:column, so the reader builds this small tree instead.
 */
public sealed interface YNode {
    int line();

    int column();

    /** Words used in "found ..." messages. */
    String describe();

    enum ScalarKind { STRING, INTEGER, FLOAT, BOOLEAN, NULL }

    record Scalar(int line, int column, ScalarKind kind, String text) implements YNode {
        public boolean isString() {
            return kind == ScalarKind.STRING && !text.isEmpty();
        }

        @Override
        public String describe() {
            return switch (kind) {
                case STRING -> text.isEmpty() ? "an empty value" : "a string";
                case INTEGER -> "an integer";
                case FLOAT -> "a decimal number";
                case BOOLEAN -> "a boolean ('" + text + "')";
                case NULL -> "null";
            };
        }
    }

    record Entry(String key, int line, int column, YNode value) {
    }

    record Mapping(int line, int column, List<Entry> entries) implements YNode {
        public Mapping {
            entries = List.copyOf(entries);
        }

        public Optional<Entry> entry(String key) {
            return entries.stream().filter(e -> e.key().equals(key)).findFirst();
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    record Sequence(int line, int column, List<YNode> items) implements YNode {
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a list";
        }
    }

    /** Stands where an alias or an over-deep subtree was; already reported, validators skip it. */
    record Rejected(int line, int column) implements YNode {
        @Override
        public String describe() {
            return "a rejected node";
        }
    }
}
