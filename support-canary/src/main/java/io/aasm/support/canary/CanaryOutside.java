package io.aasm.support.canary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a launch's canaries could have achieved that their record would not show, seen from outside the
 * boundary: the write canary's file created, a connection to the canary listener made. Looked at once, after
 * the run (at the latest on close), so every reader of one launch's evidence gets the same answer; closing
 * closes the listener and removes the write canary's file (it exists only if a boundary let it through) and any
 * other per-launch names the backend made in the canary folder.
 */
public final class CanaryOutside implements AutoCloseable {
    private final Optional<Path> writeFile;
    private final Optional<CanaryListener> listener;
    private final List<Path> alsoRemoved;
    private Optional<String> seen;
    private boolean closed;

    /**
     * @param writeFile   the file a write canary tries to create (empty without a write canary)
     * @param listener    the listener an egress canary tries to reach (empty without an egress canary)
     * @param alsoRemoved names of this launch's own, removed on close and never looked at
     */
    public CanaryOutside(Optional<Path> writeFile, Optional<CanaryListener> listener, List<Path> alsoRemoved) {
        this.writeFile = writeFile;
        this.listener = listener;
        this.alsoRemoved = List.copyOf(alsoRemoved);
    }

    /** The escape named (its domain first), or empty when nothing arrived; the same answer on every call. */
    public synchronized Optional<String> escaped() {
        if (seen == null) {
            seen = look();
        }
        return seen;
    }

    private Optional<String> look() {
        if (writeFile.isPresent() && Files.exists(writeFile.get())) {
            return Optional.of("filesystem_write: the canary created " + writeFile.get());
        }
        return listener.flatMap(CanaryListener::reached);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        escaped();
        closed = true;
        listener.ifPresent(CanaryListener::close);
        writeFile.ifPresent(CanaryOutside::remove);
        alsoRemoved.forEach(CanaryOutside::remove);
    }

    private static void remove(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // left in the backend's own state; the evidence named it
        }
    }
}
