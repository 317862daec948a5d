package io.aasm.audit.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The last record this appender wrote (its sequence number and hash) and the log file as it stood right after
 * that write, so the next append can skip reading the tail back when nobody else touched the file.
 *
 * <p>Why the identity is (device, inode, size, ctime): another aasm process appending (a cold CLI next to the
 * resident kernel) grows the file, so the size differs; a replaced file (an editor's rename) has another
 * inode; an in-place edit of any size updates ctime, which unlike mtime cannot be set back from user space.
 * The identity is taken under the exclusive lock after the write (a later {@code fdatasync} changes none of its
 * fields), so it cannot include a half-done
 * append of another aasm process (they take the same lock). An edit that slips past it (same size, in the same
 * ctime tick) is still caught by {@code verify}: the next record chains to the hash this appender wrote, so an
 * edited last record either fails its own hash or no longer matches the next record's {@code prev}.
 */
record ChainHead(long seq, String hash, Identity identity) {

    /** What stat(2) says about the log; equal only when nothing was written to or replaced the file. */
    record Identity(Object dev, Object ino, long size, Object ctime) {
        static Identity of(Path file) throws IOException {
            try {
                Map<String, Object> a = Files.readAttributes(file, "unix:dev,ino,size,ctime");
                return new Identity(a.get("dev"), a.get("ino"), (Long) a.get("size"), a.get("ctime"));
            } catch (NoSuchFileException | UnsupportedOperationException e) {
                // No file, or a platform without the unix view: never equal, so the tail is read back as before.
                return new Identity(null, null, -1, null);
            }
        }
    }

    /** True when the file is still the one this head was taken from, unchanged since. */
    boolean stillHolds(Path file) throws IOException {
        return identity.size() >= 0 && Objects.equals(identity, Identity.of(file));
    }
}
