package io.aasm.transport.proxy.internal.session;

import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.MediationTally;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decisions of one session: kept in memory (the first {@link MediationSession#KEPT}; the kernel's
 * evidence reads them, and nothing the program can reach can change them) and appended as JSON lines to the
 * session's log in the supervisor's state directory (aasm's own paths: read-only inside every boundary).
 */
final class DecisionBook implements AutoCloseable {
    private final List<EgressDecision> kept = new ArrayList<>();
    private final Optional<Path> logPath;
    private FileChannel log;
    private long allowed;
    private long denied;
    private long up;
    private long down;

    DecisionBook(Optional<Path> logPath) throws IOException {
        this.logPath = logPath;
        if (logPath.isPresent()) {
            log = FileChannel.open(logPath.get(), java.util.Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
    }

    synchronized void add(EgressDecision d) {
        if (d.denied()) {
            denied++;
        } else {
            allowed++;
        }
        up += d.bytesUp();
        down += d.bytesDown();
        if (kept.size() < MediationSession.KEPT) {
            kept.add(d);
        }
        if (log != null) {
            try {
                log.write(ByteBuffer.wrap((d.toJsonLine() + "\n").getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
                log = null; // the memory copy stays complete up to KEPT; the log is an operator's convenience
            }
        }
    }

    synchronized List<EgressDecision> decisions() {
        return List.copyOf(kept);
    }

    synchronized MediationTally tally() {
        return new MediationTally(allowed, denied, up, down);
    }

    Optional<Path> path() {
        return logPath;
    }

    @Override
    public synchronized void close() {
        if (log != null) {
            try {
                log.close();
            } catch (IOException ignored) {
                // nothing more to write
            }
            log = null;
        }
    }
}
