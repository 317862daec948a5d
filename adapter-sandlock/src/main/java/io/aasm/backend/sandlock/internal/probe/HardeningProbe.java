package io.aasm.backend.sandlock.internal.probe;

import io.aasm.backend.sandlock.internal.harden.AuthorityDrop;
import io.aasm.backend.sandlock.internal.harden.ReadOnlyView;
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
 * — a chmod of a read-only granted file changes its mode without the guard's read-only view (the
 * control) and leaves it unchanged in the view a launch stating writes gets.
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

    /** A chmod of a read-only granted file: changed without the guard's read-only view, unchanged with it. */
    static PrerequisiteStatus metadata(ProbeRunner runner, Path work) throws IOException {
        Path ro = Files.createDirectories(work.resolve("m-ro"));
        Path rw = Files.createDirectories(work.resolve("m-rw"));
        Path file = ro.resolve("f");
        String script = "echo started; sh -c 'chmod 0600 " + file + " && echo chmod-ran'; true";
        List<String> grants = List.of("--fs-read=" + ro, "--fs-write=" + rw);
        reset(file);
        String control = runner.run(grants, script, Map.of(), work, true, Optional.empty());
        if (mode(file).equals("rw-r--r--")) {
            return ProbeRunner.inconclusive("a read grant without the read-only view", control);
        }
        reset(file);
        List<String> view = ReadOnlyView.options(true, List.of(rw.toString()), runner.stateRoot(),
                Optional.of(AuthorityDrop.DROP)).orElseThrow();
        String denied = runner.run(grants, script, Map.of(), work, true, Optional.empty(), view);
        if (!denied.contains("started")) {
            return new PrerequisiteStatus.Unchecked("the run in the read-only view did not start; output: "
                    + ProbeRunner.clip(denied));
        }
        return mode(file).equals("rw-r--r--")
                ? new PrerequisiteStatus.Satisfied("a grandchild changed a read-only granted file's mode without the"
                        + " guard's read-only view and left it unchanged in it")
                : new PrerequisiteStatus.Unsatisfied("a grandchild changed a read-only granted file's mode in the"
                        + " guard's read-only view");
    }

    private static void reset(Path file) throws IOException {
        Files.writeString(file, "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static String mode(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }
}
