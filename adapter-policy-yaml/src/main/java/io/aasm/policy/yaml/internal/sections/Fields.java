package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.Suggest;
import io.aasm.policy.yaml.internal.tree.Problems;
import io.aasm.policy.yaml.internal.tree.YNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A mapping being validated: its dotted path for messages, typed access, unknown-key reporting. */
public final class Fields {
    private final YNode.Mapping mapping;
    private final String path;
    private final Problems problems;

    private Fields(YNode.Mapping mapping, String path, Problems problems) {
        this.mapping = mapping;
        this.path = path;
        this.problems = problems;
    }

    /** The node as a mapping, or empty with a "wrong type" problem (silently empty for already-rejected nodes). */
    public static Optional<Fields> of(YNode node, String path, Problems problems, String example) {
        if (node instanceof YNode.Mapping m) {
            return Optional.of(new Fields(m, path, problems));
        }
        if (!(node instanceof YNode.Rejected)) {
            problems.at(node, path + " must be a mapping, found " + node.describe(), "write e.g. " + example);
        }
        return Optional.empty();
    }

    public String path() {
        return path;
    }

    public YNode.Mapping mapping() {
        return mapping;
    }

    public boolean isEmpty() {
        return mapping.entries().isEmpty();
    }

    /** Reports every key not in {@code known}, suggesting the nearest known key. */
    public void allowOnly(List<String> known) {
        for (YNode.Entry e : mapping.entries()) {
            if (!known.contains(e.key())) {
                problems.at(e, "unknown key '" + e.key() + "' in " + path,
                        Suggest.didYouMean(e.key(), known) + "known keys: " + String.join(", ", known));
            }
        }
    }

    public Optional<YNode.Entry> entry(String key) {
        return mapping.entry(key);
    }

    /** A string-valued key; wrong types are reported. */
    public Optional<YNode.Scalar> string(String key, String example) {
        return entry(key).flatMap(e -> asString(e.value(), path + "." + key, example));
    }

    public Optional<YNode.Scalar> asString(YNode node, String where, String example) {
        if (node instanceof YNode.Scalar s && s.isString()) {
            return Optional.of(s);
        }
        if (!(node instanceof YNode.Rejected)) {
            String quote = node instanceof YNode.Scalar s && !s.text().isEmpty() ? "quote the value, or " : "";
            problems.at(node, where + " must be a string, found " + node.describe(), quote + "write e.g. " + example);
        }
        return Optional.empty();
    }

    /** A list-valued key; each item is handed back with its index for messages. */
    public Optional<List<YNode>> list(YNode.Entry entry, String example) {
        YNode node = entry.value();
        if (node instanceof YNode.Sequence s) {
            return Optional.of(new ArrayList<>(s.items()));
        }
        if (!(node instanceof YNode.Rejected)) {
            problems.at(node, path + "." + entry.key() + " must be a list, found " + node.describe(),
                    "write e.g. " + entry.key() + ": " + example);
        }
        return Optional.empty();
    }

    /** String items of a list; non-strings are reported with their index. */
    public List<YNode.Scalar> strings(YNode.Entry entry, List<YNode> items, String example) {
        List<YNode.Scalar> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            asString(items.get(i), path + "." + entry.key() + "[" + i + "]", example).ifPresent(out::add);
        }
        return out;
    }

    public Problems problems() {
        return problems;
    }
}
