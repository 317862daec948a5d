package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.backend.landlockseccomp.internal.lower.Canaries;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Files generated for one launch (hosts, resolv.conf, nsswitch.conf) in a private directory under the
 * backend's state directory, which no launch can write (it is one of the protected paths). The launcher
 * binds them into the view and they are deleted as soon as it has started: the binds keep the contents.
 * The file canaries of the launch live in the same directory (see {@link CanaryWitness}).
 *
 * <p>{@link #close()} is called more than once per launch (after the start, and again when the launch is
 * released): once the directory is gone, a later call does nothing. Listing a removed directory would throw, and
 * filling in that exception's stack trace was a measurable share of the resident kernel's CPU per launch.
 */
public final class PreparedFiles implements AutoCloseable {
    private static final PreparedFiles NONE = new PreparedFiles(Optional.empty());

    private final Optional<Path> dir;
    /** Set once the directory was removed; a failed removal leaves it clear, so the next call tries again. */
    private final AtomicBoolean removed = new AtomicBoolean();

    public PreparedFiles(Optional<Path> dir) {
        this.dir = dir;
    }

    public static PreparedFiles none() {
        return NONE;
    }

    public Optional<Path> dir() {
        return dir;
    }

    public static PreparedFiles create(LandlockSeccompPlan plan, Path stateDir) throws IOException {
        boolean fileCanaries = plan.canaries().map(c -> c.kinds().contains(Canaries.Kind.FS_READ)
                || c.kinds().contains(Canaries.Kind.FS_WRITE)).orElse(false);
        if (plan.generatedFiles().isEmpty() && !fileCanaries) {
            return none();
        }
        // Every folder created here (the cache root included, when it was deleted) is the user's alone.
        // Created when absent only: createDirectories on an existing folder costs a failed mkdir and an exception.
        Path runs = stateDir.resolve("run");
        if (!Files.isDirectory(runs)) {
            runs = Files.createDirectories(runs,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Files.setPosixFilePermissions(runs, PosixFilePermissions.fromString("rwx------"));
        // The launcher opens sources without following symlinks: hand it the real path.
        Path dir = Files.createTempDirectory(runs.toRealPath(), "launch-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (Map.Entry<String, String> f : plan.generatedFiles().entrySet()) {
            Path p = Files.writeString(dir.resolve(f.getKey()), f.getValue());
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("r--r--r--"));
        }
        return new PreparedFiles(Optional.of(dir));
    }

    public Path path(String name) {
        return dir.orElseThrow(() -> new IllegalStateException("no generated file " + name)).resolve(name);
    }

    @Override
    public void close() {
        if (dir.isEmpty() || removed.get()) {
            return;
        }
        try (var files = Files.list(dir.get())) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir.get());
            removed.set(true);
        } catch (NoSuchFileException e) {
            removed.set(true); // removed already (by a concurrent call): nothing is left
        } catch (IOException e) {
            // left behind: removed with the state directory's other leftovers
        }
    }

    @Override
    public String toString() {
        return "PreparedFiles[dir=" + dir + "]";
    }
}
