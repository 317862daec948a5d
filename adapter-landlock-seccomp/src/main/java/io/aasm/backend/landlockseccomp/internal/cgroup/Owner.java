package io.aasm.backend.landlockseccomp.internal.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who made a cgroup: this process's pid and its start time (clock ticks since boot, field 22 of
 * /proc/PID/stat), so a reused pid is never mistaken for the owner.
 */
final class Owner {
    private static final String SELF = ProcessHandle.current().pid() + "." + startTime(Path.of("/proc"),
            ProcessHandle.current().pid()).orElse(0L);

    private Owner() {
    }

    /** "pid.starttime" of this process. */
    static String self() {
        return SELF;
    }

    static Optional<Long> startTime(Path procRoot, long pid) {
        try {
            String stat = Files.readString(procRoot.resolve(Long.toString(pid)).resolve("stat"));
            // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(Long.parseLong(after[19]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
