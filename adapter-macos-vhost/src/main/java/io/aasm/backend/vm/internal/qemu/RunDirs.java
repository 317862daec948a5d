package io.aasm.backend.vm.internal.qemu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Private folders (0700) for one VM's sockets and log, under the backend's state folder (one of aasm's
 * protected paths, so no launch can reach them), or under the temp folder when that path would be too long
 * for a unix socket. Also the empty, read-only folder behind every unused share slot.
 */
public final class RunDirs {
    /** sun_path holds 108 bytes; the longest name here is "/ctl.sock" plus a 16-character folder. */
    private static final int MAX_BASE = 108 - 40;

    private final Path base;
    private final Path empty;

    public RunDirs(Path stateDir) throws IOException {
        Path runs = stateDir.resolve("run");
        this.base = runs.toString().length() <= MAX_BASE ? runs
                : Path.of(System.getProperty("java.io.tmpdir")).resolve("aasm-vm-" + ProcessHandle.current().pid());
        Files.createDirectories(base);
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwx------"));
        this.empty = stateDir.resolve("empty");
        Files.createDirectories(empty);
        Files.setPosixFilePermissions(empty, PosixFilePermissions.fromString("r-x------"));
    }

    public Path emptyDir() {
        return empty;
    }

    /** A new private run folder, removed with everything in it when closed. */
    public Run create() throws IOException {
        return new Run(Files.createTempDirectory(base, "vm-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
    }

    public record Run(Path dir) implements AutoCloseable {
        @Override
        public void close() {
            Templates.deleteTree(dir);
        }
    }
}
