package io.aasm.backend.sandlock.internal.supervise;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Reads /proc (configurable root): parent and start time of every process, by pure file I/O. */
public final class ProcessTable {
    /** A process identity that survives pid reuse: pid plus start time in clock ticks since boot. */
    public record Proc(long pid, long ppid, long startTime, char state) {
    }

    private final Path procRoot;

    public ProcessTable(Path procRoot) {
        this.procRoot = procRoot;
    }

    public Map<Long, Proc> snapshot() {
        Map<Long, Proc> out = new HashMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(procRoot, p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path p : ds) {
                read(Long.parseLong(p.getFileName().toString())).ifPresent(pr -> out.put(pr.pid(), pr));
            }
        } catch (IOException e) {
            // An unreadable /proc yields an empty table; callers then track nothing beyond the root process.
        }
        return out;
    }

    public Optional<Proc> read(long pid) {
        try {
            String stat = Files.readString(procRoot.resolve(Long.toString(pid)).resolve("stat"));
            // The command name may contain spaces and parentheses; fields start after the last ')'.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(new Proc(pid, Long.parseLong(f[1]), Long.parseLong(f[19]), f[0].charAt(0)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Alive and the same process as recorded (not a zombie, not a reused pid). */
    public boolean alive(Proc p) {
        return read(p.pid()).filter(now -> now.startTime() == p.startTime() && now.state() != 'Z'
                && now.state() != 'X').isPresent();
    }
}
