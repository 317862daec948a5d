package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.NumberRules;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;

/** {@code process}: {@code spawn: deny} (no new processes) or {@code max: N} (a ceiling), not both. */
public final class ProcessSection {
    /** The largest pid_max Linux accepts on 64-bit hosts. */
    static final long MAX_PROCESSES = 4_194_304;

    private ProcessSection() {
    }

    public static void read(YNode.Entry section, Statements out) {
        Fields.of(section.value(), "process", out.problems(), "process: {max: 64}").ifPresent(f -> {
            f.allowOnly(Statements.withHeader("max", "spawn"));
            Header header = Header.read(f);
            var max = f.entry("max");
            var spawn = f.entry("spawn");
            if (max.isPresent() && spawn.isPresent()) {
                out.problems().at(spawn.get(), "process states both max and spawn",
                        "use spawn: deny to forbid new processes, or max: N for a ceiling, not both");
                return;
            }
            if (max.isEmpty() && spawn.isEmpty()) {
                out.problems().at(section, "process states neither max nor spawn",
                        "write spawn: deny or max: 64, or remove process");
                return;
            }
            if (spawn.isPresent()) {
                f.string("spawn", "spawn: deny").ifPresent(s -> {
                    if (s.text().equals("deny")) {
                        out.put(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain(), header, section);
                    } else {
                        out.problems().at(s, "process.spawn accepts only 'deny', found '" + s.text() + "'",
                                "spawn: deny forbids new processes; use max: N for a ceiling, or remove process");
                    }
                });
                return;
            }
            NumberRules.count(max.get().value(), MAX_PROCESSES).then(
                    n -> out.put(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(n.intValue()), header,
                            section),
                    (message, hint) -> out.problems().at(max.get().value(), "process.max: " + message,
                            hint + "; spawn: deny forbids new processes"));
        });
    }
}
