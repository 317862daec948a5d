package io.aasm.backend.sandlock.internal.probe;

import io.aasm.backend.sandlock.internal.harden.ProgramFilter;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the guard adds around sandlock, observed through the real sandlock with a grandchild acting:
 * {@code least_authority} — the program's own status shows every capability set empty and no_new_privs
 * when the guard drops them, and a non-empty set when it does not (the control); {@code metadata_seal}
 * — a chmod inside a write grant changes the file's mode without aasm's program filter (the control) and
 * leaves it unchanged under the filter a launch stating writes gets.
 */
final class HardeningProbe {
    private static final String STATUS = "echo started; sh -c \"grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):'"
            + " /proc/self/status\"; true";

    private HardeningProbe() {
    }

    static PrerequisiteStatus authority(ProbeRunner runner, Path work) throws IOException {
        List<String> proc = List.of("--fs-read=/proc");
        String control = runner.run(proc, STATUS, Map.of(), work, false, Optional.empty());
        if (!control.contains("NoNewPrivs:") || clean(control)) {
            return ProbeRunner.inconclusive("the JVM's own capabilities (no drop)", control);
        }
        String dropped = runner.run(proc, STATUS, Map.of(), work, true, Optional.empty());
        if (!dropped.contains("started") || !dropped.contains("NoNewPrivs:")) {
            return new PrerequisiteStatus.Unchecked("the run with the drop did not report its status; output: "
                    + ProbeRunner.clip(dropped));
        }
        return clean(dropped)
                ? new PrerequisiteStatus.Satisfied("a grandchild held capabilities when the guard left them and held"
                        + " none, with no_new_privs, when it dropped them")
                : new PrerequisiteStatus.Unsatisfied("a grandchild still held capabilities or lacked no_new_privs after"
                        + " the guard's drop: " + ProbeRunner.clip(dropped));
    }

    /** Every Cap line all zeroes and NoNewPrivs 1. */
    static boolean clean(String status) {
        boolean nnp = false;
        int sets = 0;
        for (String line : status.lines().toList()) {
            String[] kv = line.split(":\\s*", 2);
            if (kv.length == 2 && kv[0].startsWith("Cap")) {
                if (!kv[1].strip().matches("0+")) {
                    return false;
                }
                sets++;
            }
            nnp |= kv.length == 2 && kv[0].equals("NoNewPrivs") && kv[1].strip().equals("1");
        }
        return nnp && sets == 5;
    }

    static PrerequisiteStatus metadata(ProbeRunner runner, Path work) throws IOException {
        Path dir = Files.createDirectories(work.resolve("m"));
        Path file = dir.resolve("f");
        String script = "echo started; sh -c 'chmod 0600 " + file + " && echo chmod-ran'; true";
        List<String> grant = List.of("--fs-write=" + dir);
        reset(file);
        String control = runner.run(grant, script, Map.of(), work, true, Optional.empty());
        if (mode(file).equals("rw-r--r--")) {
            return ProbeRunner.inconclusive("--fs-write without aasm's filter", control);
        }
        reset(file);
        ProgramFilter.Concerns writes = new ProgramFilter.Concerns(true, false);
        String denied = runner.run(grant, script, Map.of(), work, true, Optional.of(writes));
        if (!denied.contains("started")) {
            return new PrerequisiteStatus.Unchecked("the run under aasm's filter did not start; output: "
                    + ProbeRunner.clip(denied));
        }
        return mode(file).equals("rw-r--r--")
                ? new PrerequisiteStatus.Satisfied("a grandchild changed a file's mode inside a write grant without"
                        + " aasm's filter and left it unchanged under it")
                : new PrerequisiteStatus.Unsatisfied("a grandchild changed a file's mode under aasm's filter");
    }

    private static void reset(Path file) throws IOException {
        Files.writeString(file, "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static String mode(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }
}
