package io.aasm.audit.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Group commit of one log's {@code fdatasync}: one force covers every record whose write had returned before
 * it began, so concurrent launches of a resident kernel share a force instead of queueing one each behind the
 * append lock. Each append still returns only once a force that began after its own write has ended: its
 * record is on disk before the launch is reported done (issue 17), exactly as when every append forced its own.
 *
 * <p>Why it is correct: {@code fdatasync} flushes the file (its inode), not a descriptor, so a force through any
 * descriptor of the log covers every write to it that had returned. A write takes its ticket after it returned,
 * still under the append lock, so when a force begins all tickets up to the count it read are written; the
 * writer that forces records that count as durable only after its force succeeded. A failed force marks nothing,
 * and every writer still waiting tries its own. One instance per log file in this JVM (two appenders of one
 * file share it, as they share the append lock); another process's appends force on their own.
 */
final class GroupSync {
    /** How a log is forced; tests wrap it to count and hold forces. */
    interface Force {
        void force(FileChannel written) throws IOException;
    }

    static final Force FDATASYNC = ch -> ch.force(false); // the data and the new size; not the times

    private static final Map<Path, GroupSync> BY_FILE = new ConcurrentHashMap<>();

    private final Object forcing = new Object();
    private long written; // guarded by this
    private long durable; // guarded by forcing

    static GroupSync of(Path file) {
        return BY_FILE.computeIfAbsent(file.toAbsolutePath().normalize(), f -> new GroupSync());
    }

    /** A record's write has returned: its ticket, to be passed to {@link #awaitDurable}. */
    synchronized long wrote() {
        return ++written;
    }

    private synchronized long writtenSoFar() {
        return written;
    }

    /** Returns once a force that began after ticket {@code ticket}'s write has succeeded (this thread's or another's). */
    void awaitDurable(long ticket, FileChannel ch, Force force) throws IOException {
        synchronized (forcing) {
            if (durable >= ticket) {
                return; // a force that began after this write has ended: the record is on disk
            }
            long upTo = writtenSoFar();
            force.force(ch);
            durable = upTo;
        }
    }
}
