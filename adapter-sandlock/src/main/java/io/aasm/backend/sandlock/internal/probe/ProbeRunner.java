package io.aasm.backend.sandlock.internal.probe;

import io.aasm.backend.sandlock.internal.harden.ProgramFilter;
import io.aasm.backend.sandlock.internal.supervise.Runs;
import io.aasm.backend.sandlock.internal.supervise.SandlockRun;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Controlled pairs through the real sandlock: each denial run differs from its control run by one
 * grant, the acting process is a grandchild where the domain allows it, and the verdict rests on an
 * effect (bytes in a file, bytes at a listener we own), never on an exit code alone.
 */
public final class ProbeRunner {
    private static final List<String> SYSTEM = List.of("/usr", "/bin", "/lib", "/lib64", "/lib32", "/sbin");

    public static final List<String> ALL = List.of(ProbeResults.FS_READ, ProbeResults.FS_WRITE, ProbeResults.PROCESS,
            ProbeResults.SYSCALL, ProbeResults.OPEN_FILES, ProbeResults.MEMORY, ProbeResults.EGRESS,
            ProbeResults.CREDENTIAL, ProbeResults.IPC, ProbeResults.DESCRIPTORS, ProbeResults.AUTHORITY,
            ProbeResults.METADATA);

    private final Path sandlock;
    private final Runs runs;
    private final Optional<Path> actor;

    /** {@code actor} is the guard executable, whose {@code probe} actions the IPC probe runs. */
    public ProbeRunner(Path sandlock, Runs runs, Optional<Path> actor) {
        this.sandlock = sandlock;
        this.runs = runs;
        this.actor = actor;
    }

    public ProbeResults runAll() {
        Map<String, PrerequisiteStatus> out = new HashMap<>();
        try {
            Path work = Files.createTempDirectory("aasm-sandlock-probe");
            try {
                out.put(ProbeResults.FS_READ, fsRead(work));
                out.put(ProbeResults.FS_WRITE, fsWrite(work));
                out.put(ProbeResults.PROCESS, pair(List.of("--max-processes=4"), List.of("--max-processes=1"),
                        "echo started; sh -c 'echo child-ran'; true", "child-ran", work));
                out.put(ProbeResults.SYSCALL, pair(List.of(), List.of("--extra-deny-syscall=chdir"),
                        "echo started; sh -c 'cd / && echo chdir-ran'; true", "chdir-ran", work));
                out.put(ProbeResults.OPEN_FILES, pair(List.of("--max-open-files=64"), List.of("--max-open-files=8"),
                        "echo started; sh -c 'exec 9>&1 && echo fd9-opened'; true", "fd9-opened", work));
                // dd allocates and fills one 64 MiB buffer: it completes under 256 MiB, is killed under 16 MiB.
                List<String> dev = List.of("--fs-read=/dev/zero", "--fs-write=/dev/null");
                out.put(ProbeResults.MEMORY, pair(concat(dev, "--max-memory=262144K"), concat(dev, "--max-memory=16384K"),
                        "echo started; sh -c 'dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null && echo mem-ok';"
                                + " true", "mem-ok", work));
                out.put(ProbeResults.EGRESS, EgressProbe.run(this, work));
                out.put(ProbeResults.CREDENTIAL, credential(work));
                out.put(ProbeResults.IPC, actor.isPresent() ? new IpcProbe(this, actor.get(), work).run()
                        : new PrerequisiteStatus.Unchecked("no probe actor (guard) on this platform"));
                out.put(ProbeResults.DESCRIPTORS, DescriptorProbe.run(this, work));
                out.put(ProbeResults.AUTHORITY, HardeningProbe.authority(this, work));
                out.put(ProbeResults.METADATA, HardeningProbe.metadata(this, work));
            } finally {
                deleteTree(work);
            }
        } catch (IOException e) {
            String why = "probes could not run: " + e.getMessage();
            for (String p : ALL) {
                out.putIfAbsent(p, new PrerequisiteStatus.Unchecked(why));
            }
        }
        return new ProbeResults(out, Instant.now());
    }

    /** Output of one confined run of {@code /bin/sh -c script}, as a launch runs (capabilities dropped). */
    String run(List<String> extra, String script, Map<String, String> env, Path work) throws IOException {
        return run(extra, script, env, work, true, Optional.empty());
    }

    /**
     * As above; {@code dropAuthority} false runs sandlock with the JVM's capabilities (a control), and
     * {@code filter}, when present, runs the program under aasm's filter through the guard's shim.
     */
    String run(List<String> extra, String script, Map<String, String> env, Path work, boolean dropAuthority,
               Optional<ProgramFilter.Concerns> filter) throws IOException {
        return run(extra, script, env, work, dropAuthority, filter, List.of());
    }

    /** As above, with further options for the guard (a read-only view's). */
    String run(List<String> extra, String script, Map<String, String> env, Path work, boolean dropAuthority,
               Optional<ProgramFilter.Concerns> filter, List<String> guardOptions) throws IOException {
        List<String> shim = new ArrayList<>();
        List<String> argv = new ArrayList<>(List.of(sandlock.toString(), "run"));
        SYSTEM.stream().filter(p -> Files.isDirectory(Path.of(p))).forEach(p -> argv.add("--fs-read=" + p));
        if (filter.isPresent()) {
            Path guard = actor.orElseThrow(() -> new IOException("no guard to run the program's filter"));
            byte[] program = ProgramFilter.build(ProgramFilter.hostArch(), filter.get())
                    .orElseThrow(() -> new IOException("no seccomp numbers for " + ProgramFilter.hostArch()));
            argv.add("--fs-read=" + guard);
            shim.addAll(List.of(guard.toString(), "exec", ProgramFilter.hex(program), "--"));
        }
        argv.addAll(extra);
        argv.add("--on-error=abort");
        argv.add("--status-fd=3");
        if (env.isEmpty()) {
            argv.add("--clean-env");
        }
        argv.add("--cwd=/");
        Optional<String> name = runs.newSandboxName();
        name.ifPresent(n -> argv.add("--name=" + n));
        argv.add("--");
        argv.addAll(shim);
        argv.addAll(script.startsWith("/") ? List.of(script) : List.of("/bin/sh", "-c", script));
        return runAndRead(argv, name, env, work, dropAuthority, guardOptions);
    }

    /** Sandlock's per-user state folder, which a read-only view keeps writable. */
    Path stateRoot() {
        return runs.stateRoot();
    }

    /** Output of {@code /bin/sh -c script} run by the guard alone, without sandlock: a control's baseline. */
    String runWithoutSandlock(String script, Path work) throws IOException {
        return runAndRead(List.of("/bin/sh", "-c", script), Optional.empty(), Map.of(), work, true, List.of());
    }

    private String runAndRead(List<String> argv, Optional<String> name, Map<String, String> env, Path work,
                              boolean dropAuthority, List<String> guardOptions) throws IOException {
        Path out = work.resolve("out-" + UUID.randomUUID());
        SandlockRun r = runs.start(argv, name, env, Path.of("/"), Runs.Stdio.toFile(out), OptionalLong.of(15_000),
                dropAuthority, guardOptions);
        try {
            r.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        Files.deleteIfExists(out);
        return text;
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> out = new ArrayList<>(a);
        out.add(b);
        return out;
    }

    private PrerequisiteStatus pair(List<String> controlFlags, List<String> deniedFlags, String script, String effect,
                                    Path work) throws IOException {
        String controlFlag = controlFlags.isEmpty() ? "no extra flag" : String.join(" ", controlFlags);
        String deniedFlag = String.join(" ", deniedFlags);
        String control = run(controlFlags, script, Map.of(), work);
        if (!control.contains(effect)) {
            return inconclusive(controlFlag, control);
        }
        String denied = run(deniedFlags, script, Map.of(), work);
        if (!denied.contains("started")) {
            return new PrerequisiteStatus.Unchecked("with " + deniedFlag + " the program did not start; output: "
                    + clip(denied));
        }
        return denied.contains(effect)
                ? new PrerequisiteStatus.Unsatisfied("with " + deniedFlag + " the grandchild still produced '" + effect
                        + "'; sandlock did not enforce it on this host")
                : new PrerequisiteStatus.Satisfied("grandchild produced '" + effect + "' with " + controlFlag
                        + " and not with " + deniedFlag);
    }

    private PrerequisiteStatus fsRead(Path work) throws IOException {
        Path dir = Files.createDirectories(work.resolve("r"));
        String token = "probe-" + UUID.randomUUID();
        Files.writeString(dir.resolve("secret"), token);
        String script = "echo started; sh -c 'cat " + dir.resolve("secret") + "'; true";
        String control = run(List.of("--fs-read=" + dir), script, Map.of(), work);
        if (!control.contains(token)) {
            return inconclusive("--fs-read=" + dir, control);
        }
        String denied = run(List.of(), script, Map.of(), work);
        if (!denied.contains("started")) {
            return new PrerequisiteStatus.Unchecked("the denied run did not start; output: " + clip(denied));
        }
        return denied.contains(token)
                ? new PrerequisiteStatus.Unsatisfied("a grandchild read a file outside every --fs-read grant")
                : new PrerequisiteStatus.Satisfied("a grandchild read the file with --fs-read on its directory and got"
                        + " no byte of it without");
    }

    private PrerequisiteStatus fsWrite(Path work) throws IOException {
        Path dir = Files.createDirectories(work.resolve("w"));
        Path target = dir.resolve("target");
        String script = "echo started; sh -c 'echo changed > " + target + "'; true";
        Files.writeString(target, "original");
        run(List.of("--fs-write=" + dir), script, Map.of(), work);
        if (!Files.readString(target).equals("changed\n")) {
            return new PrerequisiteStatus.Unchecked("the control run (--fs-write) did not change the file;"
                    + " inconclusive");
        }
        Files.writeString(target, "original");
        String denied = run(List.of("--fs-read=" + dir), script, Map.of(), work);
        if (!denied.contains("started")) {
            return new PrerequisiteStatus.Unchecked("the denied run did not start; output: " + clip(denied));
        }
        return Files.readString(target).equals("original")
                ? new PrerequisiteStatus.Satisfied("a grandchild changed the file with --fs-write and left it byte for"
                        + " byte unchanged with only --fs-read")
                : new PrerequisiteStatus.Unsatisfied("a grandchild changed a file under a read-only grant");
    }

    private PrerequisiteStatus credential(Path work) throws IOException {
        String token = "value-" + UUID.randomUUID();
        String env = Files.isExecutable(Path.of("/usr/bin/env")) ? "/usr/bin/env" : "/bin/env";
        String out = run(List.of(), env, Map.of("AASM_PROBE_DELEGATED", token), work);
        List<String> names = out.lines().filter(l -> l.contains("=")).map(l -> l.substring(0, l.indexOf('='))).toList();
        if (!out.contains("AASM_PROBE_DELEGATED=" + token)) {
            return inconclusive("a delegated name", out);
        }
        return names.equals(List.of("AASM_PROBE_DELEGATED"))
                ? new PrerequisiteStatus.Satisfied("the program saw the delegated name and no other variable")
                : new PrerequisiteStatus.Unsatisfied("the program saw undelegated variables " + names);
    }

    static PrerequisiteStatus inconclusive(String grant, String output) {
        return new PrerequisiteStatus.Unchecked("the control run with " + grant + " did not show the effect;"
                + " inconclusive; output: " + clip(output));
    }

    static String clip(String s) {
        String one = s.replace('\n', ' ').strip();
        return one.length() > 200 ? one.substring(0, 200) + "..." : one;
    }

    private static void deleteTree(Path root) {
        try (var walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Best effort: a temp directory left behind is harmless.
        }
    }
}
