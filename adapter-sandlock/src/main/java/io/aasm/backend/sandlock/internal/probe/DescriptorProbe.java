package io.aasm.backend.sandlock.internal.probe;

import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The guard hands sandlock its status pipe as descriptor 3. Control: a grandchild run by the guard
 * alone writes to descriptor 3; denial: the same grandchild under sandlock finds it closed. This is
 * what lets the descriptor inventory of a sandlock launch be clean.
 */
final class DescriptorProbe {
    private DescriptorProbe() {
    }

    static PrerequisiteStatus run(ProbeRunner runner, Path work) throws IOException {
        String script = "echo started; sh -c 'echo probe >&3 && echo fd3-open'; true";
        String control = runner.runWithoutSandlock(script, work);
        if (!control.contains("fd3-open")) {
            return ProbeRunner.inconclusive("the guard's descriptor 3 (no sandlock)", control);
        }
        String denied = runner.run(List.of(), script, Map.of(), work);
        if (!denied.contains("started")) {
            return new PrerequisiteStatus.Unchecked("the sandlock run did not start; output: "
                    + ProbeRunner.clip(denied));
        }
        return denied.contains("fd3-open")
                ? new PrerequisiteStatus.Unsatisfied("a grandchild under sandlock wrote to the status descriptor aasm"
                        + " hands to sandlock")
                : new PrerequisiteStatus.Satisfied("a grandchild wrote to descriptor 3 when the guard ran it directly"
                        + " and found it closed under sandlock");
    }
}
