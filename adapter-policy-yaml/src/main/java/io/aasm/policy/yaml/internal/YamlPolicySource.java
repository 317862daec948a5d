package io.aasm.policy.yaml.internal;

import io.aasm.policy.yaml.internal.tree.InputGate;
import io.aasm.policy.yaml.internal.tree.Problems;
import io.aasm.policy.yaml.internal.tree.TreeReader;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyFormat;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicySource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.osgi.service.component.annotations.Component;

/** The YAML policy format ({@code apiVersion: aasm/v1}); see docs/policy.md for the language. */
@Component(service = PolicySource.class)
@PolicyFormat("yaml")
public final class YamlPolicySource implements PolicySource {
    private final String schema = PolicySchema.text();

    @Override
    public String format() {
        return "yaml";
    }

    @Override
    public boolean accepts(Path file) {
        Path name = file.getFileName();
        String n = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".yaml") || n.endsWith(".yml");
    }

    @Override
    public PolicyLoad load(Path file) {
        Problems problems = new Problems(file.toString());
        Optional<byte[]> bytes = readBounded(file, problems);
        return bytes.flatMap(b -> InputGate.decode(b, problems))
                .map(text -> validate(text, problems))
                .orElseGet(() -> new PolicyLoad.Rejected(problems.sorted()));
    }

    @Override
    public PolicyLoad parse(String origin, String text) {
        Problems problems = new Problems(origin);
        if (!InputGate.withinLimit(text, problems)) {
            return new PolicyLoad.Rejected(problems.sorted());
        }
        return validate(text.startsWith("\uFEFF") ? text.substring(1) : text, problems);
    }

    @Override
    public Optional<String> jsonSchema() {
        return Optional.of(schema);
    }

    private static PolicyLoad validate(String text, Problems problems) {
        try {
            Optional<YNode> root = new TreeReader(problems).read(text);
            Optional<Policy> policy = root.flatMap(r -> PolicyReader.read(r, problems));
            if (problems.isEmpty() && policy.isPresent()) {
                return new PolicyLoad.Loaded(policy.get());
            }
        } catch (RuntimeException e) {
            // The contract says a source never throws for bad input; a bug here must still reject, loudly.
            problems.add(0, 0, "internal error while reading the policy: " + e, "report this as a bug in aasm");
        }
        return new PolicyLoad.Rejected(problems.sorted());
    }

    /** Reads at most one byte past the limit, so a huge file is refused without loading it. */
    private static Optional<byte[]> readBounded(Path file, Problems problems) {
        try (InputStream in = Files.newInputStream(file)) {
            long size = Files.size(file);
            if (size > InputGate.MAX_BYTES) {
                InputGate.tooLarge(size, problems);
                return Optional.empty();
            }
            return Optional.of(in.readNBytes(InputGate.MAX_BYTES + 1));
        } catch (IOException e) {
            problems.add(0, 0, "cannot read the policy file: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    "check the path and its permissions");
            return Optional.empty();
        }
    }
}
