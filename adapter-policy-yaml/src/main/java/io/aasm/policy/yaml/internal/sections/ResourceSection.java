package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.Checked;
import io.aasm.policy.yaml.internal.rules.NumberRules;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** {@code resources}: ceilings; at least one must be stated, since an empty ceiling set limits nothing. */
public final class ResourceSection {
    static final long MAX_BYTES = 1L << 50; // 1 PiB
    static final long MAX_SECONDS = Integer.MAX_VALUE;
    static final long MAX_OPEN_FILES = 1L << 30; // the kernel's ceiling for fs.nr_open
    static final List<String> CEILINGS = List.of("memory", "cpu_seconds", "wall_clock_seconds", "open_files",
            "file_size", "processes");

    private ResourceSection() {
    }

    public static void read(YNode.Entry section, Statements out) {
        Fields.of(section.value(), "resources", out.problems(), "resources: {memory: 512MiB}").ifPresent(f -> {
            f.allowOnly(Statements.withHeader(CEILINGS.toArray(String[]::new)));
            Header header = Header.read(f);
            Map<String, OptionalLong> values = new LinkedHashMap<>();
            boolean stated = false;
            for (String key : CEILINGS) {
                var entry = f.entry(key);
                values.put(key, OptionalLong.empty());
                if (entry.isEmpty()) {
                    continue;
                }
                stated = true;
                YNode v = entry.get().value();
                Checked<Long> checked = switch (key) {
                    case "memory", "file_size" -> NumberRules.size(v, MAX_BYTES);
                    case "open_files" -> NumberRules.count(v, MAX_OPEN_FILES);
                    case "processes" -> NumberRules.count(v, ProcessSection.MAX_PROCESSES);
                    default -> NumberRules.count(v, MAX_SECONDS);
                };
                checked.then(n -> values.put(key, OptionalLong.of(n)),
                        (message, hint) -> out.problems().at(v, "resources." + key + ": " + message, hint));
            }
            if (!stated) {
                out.problems().at(section, "resources states no ceiling",
                        "state at least one of " + String.join(", ", CEILINGS) + ", or remove resources");
                return;
            }
            out.put(CapabilityDomain.RESOURCE, new Scope.Limits(values.get("memory"), values.get("cpu_seconds"),
                    values.get("wall_clock_seconds"), values.get("open_files"), values.get("file_size"),
                    values.get("processes")), header, section);
        });
    }
}
