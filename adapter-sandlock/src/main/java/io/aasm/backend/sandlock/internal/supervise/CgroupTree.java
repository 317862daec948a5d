package io.aasm.backend.sandlock.internal.supervise;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Tracks the tree with a cgroup v2 directory of its own. A two-line shell puts itself into the group
 * and then execs sandlock, so sandlock and everything it ever forks is in the group from the first
 * instruction — setsid, setpgid and reparenting cannot leave a cgroup. Teardown writes cgroup.kill.
 */
final class CgroupTree implements TreeTracker {
    /** {@code $0} is the procs file; the rest is the real command. */
    static final String PLACE_AND_EXEC = "echo $$ > \"$0\" && exec \"$@\"";
    /** Names the placement shell adds to the environment on its own (dash exports PWD). */
    static final Set<String> SHELL_ADDED = Set.of("PWD", "OLDPWD", "SHLVL", "_");

    private final Path dir;
    private final Set<String> keep;

    CgroupTree(Path dir, Set<String> delegatedNames) {
        this.dir = dir;
        this.keep = delegatedNames;
    }

    @Override
    public List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of("/bin/sh", "-c", PLACE_AND_EXEC, dir.resolve("cgroup.procs").toString()));
        // Strip what the shell added, so sandlock's environment is exactly the delegated names.
        List<String> strip = SHELL_ADDED.stream().filter(n -> !keep.contains(n)).sorted().toList();
        if (!strip.isEmpty()) {
            out.add(envProgram());
            for (String n : strip) {
                out.add("-u");
                out.add(n);
            }
        }
        out.addAll(command);
        return out;
    }

    static String envProgram() {
        return Files.isExecutable(Path.of("/usr/bin/env")) ? "/usr/bin/env" : "/bin/env";
    }

    @Override
    public void started(ProcessHandle root) {
        // Placement already happened inside the shell, before sandlock started.
    }

    List<Long> members() {
        try {
            return Files.readAllLines(dir.resolve("cgroup.procs")).stream().filter(l -> !l.isBlank())
                    .map(l -> Long.parseLong(l.strip())).toList();
        } catch (IOException | NumberFormatException e) {
            return List.of();
        }
    }

    @Override
    public void terminateAll() {
        members().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
    }

    @Override
    public int killAll() {
        int signalled = members().size();
        Path kill = dir.resolve("cgroup.kill");
        for (int round = 0; round < 200 && populated(); round++) {
            try {
                if (Files.exists(kill)) {
                    Files.writeString(kill, "1");
                } else {
                    // Kernels before 5.14: kill member by member; membership still prevents escape.
                    members().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
                }
            } catch (IOException e) {
                members().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            }
            pause();
        }
        return signalled;
    }

    boolean populated() {
        try {
            return Files.readAllLines(dir.resolve("cgroup.events")).stream().noneMatch(l -> l.equals("populated 0"));
        } catch (IOException e) {
            return !members().isEmpty();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < 50; i++) {
            try {
                Files.deleteIfExists(dir);
                return;
            } catch (IOException e) {
                // Busy until the last member is reaped; retry briefly, then leave an empty group behind.
                pause();
            }
        }
    }
}
