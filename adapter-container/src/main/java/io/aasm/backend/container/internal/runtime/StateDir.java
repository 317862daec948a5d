package io.aasm.backend.container.internal.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * The backend's own files ({@code $XDG_CACHE_HOME/aasm/container}, else {@code ~/.cache/aasm/container},
 * 0700): the empty file that masks the engine's sockets, each launch's generated files (bound read-only
 * into its container and deleted once it is gone), and the extracted guard. It is one of the paths every
 * launch sees read-only at most, so no program can change what the next launch gets.
 */
public final class StateDir {
    private final Path root;

    public StateDir(Path root) {
        this.root = root;
    }

    public static Path defaultRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("aasm").resolve("container");
    }

    public Path root() {
        return root;
    }

    private Path dir(Path p) throws IOException {
        Files.createDirectories(p);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p.toRealPath();
    }

    /** An empty, read-only file; made again if anything ever wrote to it. */
    public synchronized Path emptyFile() throws IOException {
        Path f = dir(root).resolve("empty");
        if (!Files.isRegularFile(f) || Files.size(f) != 0) {
            Files.deleteIfExists(f);
            Files.createFile(f);
        }
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r--r--"));
        return f;
    }

    /** A fresh private folder holding {@code files} (name to content), each read-only. */
    public Path generated(Map<String, String> files) throws IOException {
        Path d = Files.createTempDirectory(dir(root.resolve("run")), "launch-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = Files.writeString(d.resolve(f.getKey()), f.getValue());
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("r--r--r--"));
        }
        return d;
    }

    public static void delete(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // left behind in the state directory; harmless (read-only files of an ended launch)
        }
    }
}
