package io.aasm.policy.yaml.internal;

import io.aasm.policy.yaml.internal.rules.Suggest;
import io.aasm.policy.yaml.internal.sections.CredentialSection;
import io.aasm.policy.yaml.internal.sections.Fields;
import io.aasm.policy.yaml.internal.sections.FilesystemSection;
import io.aasm.policy.yaml.internal.sections.IpcSection;
import io.aasm.policy.yaml.internal.sections.NetworkSection;
import io.aasm.policy.yaml.internal.sections.ProcessSection;
import io.aasm.policy.yaml.internal.sections.ResourceSection;
import io.aasm.policy.yaml.internal.sections.Statements;
import io.aasm.policy.yaml.internal.sections.SyscallSection;
import io.aasm.policy.yaml.internal.tree.Problems;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Policy;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/** Reads the envelope (apiVersion, kind, metadata, isolation) and hands each section to its reader. */
final class PolicyReader {
    static final String API_VERSION = "aasm/v1";
    static final String KIND = "Policy";
    private static final Map<String, BiConsumer<YNode.Entry, Statements>> SECTIONS = Map.of(
            "filesystem", FilesystemSection::read,
            "network", NetworkSection::read,
            "syscalls", SyscallSection::read,
            "process", ProcessSection::read,
            "ipc", IpcSection::read,
            "credentials", CredentialSection::read,
            "resources", ResourceSection::read);
    static final List<String> TOP_KEYS = List.of("apiVersion", "kind", "metadata", "isolation", "filesystem",
            "network", "syscalls", "process", "ipc", "credentials", "resources");
    private static final List<String> CLASSES =
            Arrays.stream(IsolationClass.values()).map(IsolationClass::token).toList();

    private PolicyReader() {
    }

    /** The policy; meaningful only when {@code problems} stayed empty. */
    static Optional<Policy> read(YNode root, Problems problems) {
        Optional<Fields> top = Fields.of(root, "the policy", problems,
                "apiVersion: aasm/v1 / kind: Policy on two lines");
        if (top.isEmpty()) {
            return Optional.empty();
        }
        Fields f = top.get();
        f.allowOnly(TOP_KEYS);
        exact(f, "apiVersion", API_VERSION);
        exact(f, "kind", KIND);
        f.entry("metadata").ifPresent(e -> metadata(e, problems));
        Optional<IsolationClass> isolation = f.string("isolation", "isolation: auto").flatMap(s -> {
            Optional<IsolationClass> c = IsolationClass.fromToken(s.text());
            if (c.isEmpty()) {
                problems.at(s, "unknown isolation class '" + s.text() + "'",
                        Suggest.didYouMean(s.text(), CLASSES) + "isolation is one of " + String.join(", ", CLASSES));
            }
            return c;
        });
        Statements statements = new Statements(problems);
        for (YNode.Entry e : f.mapping().entries()) {
            BiConsumer<YNode.Entry, Statements> section = SECTIONS.get(e.key());
            if (section != null) {
                section.accept(e, statements);
            }
        }
        return Optional.of(new Policy(problems.origin(), isolation, statements.byDomain(), List.of()));
    }

    private static void exact(Fields f, String key, String expected) {
        if (f.entry(key).isEmpty()) {
            f.problems().at(f.mapping(), "missing " + key,
                    "add '" + key + ": " + expected + "' at the top of the file");
            return;
        }
        f.string(key, key + ": " + expected).ifPresent(s -> {
            if (!s.text().equals(expected)) {
                f.problems().at(s, "unsupported " + key + " '" + s.text() + "'",
                        "this reader understands " + key + ": " + expected);
            }
        });
    }

    /** Free-form labels for people; strings only, so nothing in metadata can carry structure or meaning. */
    private static void metadata(YNode.Entry e, Problems problems) {
        Fields.of(e.value(), "metadata", problems, "metadata: {name: demo}").ifPresent(m -> {
            for (YNode.Entry item : m.mapping().entries()) {
                m.asString(item.value(), "metadata." + item.key(), item.key() + ": some text");
            }
        });
    }
}
