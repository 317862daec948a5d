package io.aasm.audit.internal;

import io.aasm.ports.trace.LaunchStages;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One JSON document per line, each chained to the one before: a line is {@code {"hash":"H",...}} where H is
 * the SHA-256 of the previous line's hash followed by the rest of this line as written (its body, with
 * {@code prev} and {@code seq} in it). An edited line breaks its own hash; a removed or reordered one breaks
 * the next {@code prev}. Appends hold an exclusive lock across processes (several cold JVMs and a resident
 * kernel may append at once) and are forced to disk before they return. A tail left without its newline by
 * a crash is moved aside on the next append, never silently kept or dropped.
 */
final class ChainedFile {
    static final String GENESIS = "0".repeat(64);
    private static final String PREFIX = "{\"hash\":\"";
    private static final int BODY_FROM = PREFIX.length() + 64 + 2; // past the hash, its quote and the comma

    /**
     * How the previous record is found. {@code CHECKED} (the product): the head this instance last wrote, while
     * the file's identity is unchanged, else the tail read back. {@code OFF}: the tail read back every time (the
     * behaviour before the head was kept; the benchmark's baseline). {@code UNCHECKED}: the kept head without
     * the identity check, a test-only control that shows why the check is needed (it forks the chain).
     */
    enum HeadCache { CHECKED, OFF, UNCHECKED }

    private final Path file;
    private final Path lock;
    private final HeadCache mode;
    private final boolean groupSync;
    private final GroupSync.Force force;
    private final ObjectMapper json = new ObjectMapper();
    /** Guarded by ChainedFile.class, like every append. */
    private ChainHead head;

    ChainedFile(Path dir) {
        this(dir, HeadCache.CHECKED);
    }

    ChainedFile(Path dir, HeadCache mode) {
        this(dir, mode, !"false".equals(System.getProperty("aasm.audit.groupSync")), GroupSync.FDATASYNC);
    }

    /** For tests: group commit on or off, and the force wrapped. */
    ChainedFile(Path dir, HeadCache mode, boolean groupSync, GroupSync.Force force) {
        this.file = dir.resolve("audit.jsonl");
        this.lock = dir.resolve("audit.lock");
        this.mode = mode;
        this.groupSync = groupSync;
        this.force = force;
    }

    Path path() {
        return file;
    }

    /** Appends one record (its fields in order); returns the line written. */
    String append(Map<String, Object> fields) throws IOException {
        if (!Files.isDirectory(file.getParent())) {
            // only when absent: on an existing folder createDirectories costs a failed mkdir and an exception
            Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
        }
        GroupSync sync = groupSync ? GroupSync.of(file) : null;
        Written w;
        // File locks are per process: threads of one JVM (a resident kernel's launches) queue here first.
        synchronized (ChainedFile.class) {
            w = appendLocked(fields, sync);
        }
        if (sync == null) {
            return w.line();
        }
        try (FileChannel out = w.out()) {
            // outside the locks: whoever forces next covers this record and every other one written meanwhile
            sync.awaitDurable(w.ticket(), out, force);
            LaunchStages.mark("audit_fsync");
        }
        return w.line();
    }

    /** A record written: its line; with group commit, the still open log and the write's ticket. */
    private record Written(String line, FileChannel out, long ticket) {
    }

    /**
     * Chains and writes one record under the cross-process lock. Without {@code sync} it forces the log before
     * returning; with it, it leaves the log open and the force to the caller.
     */
    private Written appendLocked(Map<String, Object> fields, GroupSync sync) throws IOException {
        try (FileChannel l = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock held = l.lock()) {
            ChainHead kept = head;
            head = null; // until this append is written
            String prev;
            long seq;
            if (kept != null && (mode == HeadCache.UNCHECKED || mode == HeadCache.CHECKED && kept.stillHolds(file))) {
                // Nobody wrote since our own append, which ended with a newline: no torn tail, no re-read.
                prev = kept.hash();
                seq = kept.seq() + 1;
            } else {
                setAsideTornTail();
                Optional<String> last = lastLine();
                prev = last.map(ChainedFile::hashOf).orElse(GENESIS);
                seq = last.map(this::seqOf).orElse(0L) + 1;
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("prev", prev);
            body.put("seq", seq);
            body.putAll(fields);
            String bodyText = json.writeValueAsString(body);
            String hash = sha256(prev + bodyText);
            String line = PREFIX + hash + "\"," + bodyText.substring(1) + "\n";
            ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
            FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            long ticket = 0;
            try {
                while (b.hasRemaining()) {
                    out.write(b);
                }
                LaunchStages.mark("audit_write");
                if (sync == null) {
                    force.force(out);
                    LaunchStages.mark("audit_fsync");
                } else {
                    ticket = sync.wrote(); // after the write returned: a force from now on covers it
                }
                if (mode != HeadCache.OFF) {
                    // still under the file lock; with group commit the record may not be forced yet, which only
                    // matters after a crash, and then it and every record chained to it are lost alike
                    head = new ChainHead(seq, hash, ChainHead.Identity.of(file));
                }
            } catch (IOException | RuntimeException e) {
                out.close();
                throw e;
            }
            if (sync == null) {
                out.close();
            }
            return new Written(line.substring(0, line.length() - 1), sync == null ? null : out, ticket);
        }
    }

    /** Every complete line, oldest first. */
    List<String> lines() throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        byte[] raw = Files.readAllBytes(file);
        if (raw.length > 0 && raw[raw.length - 1] != '\n' && !all.isEmpty()) {
            all = all.subList(0, all.size() - 1); // a torn tail is not a record
        }
        return all;
    }

    /** Every problem of the chain, by line number (1-based). */
    List<String> verify(List<String> lines) {
        List<String> problems = new ArrayList<>();
        String prev = GENESIS;
        long seq = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int n = i + 1;
            if (!line.startsWith(PREFIX) || line.length() <= BODY_FROM || line.charAt(BODY_FROM - 2) != '"') {
                problems.add("line " + n + ": not a chained record");
                prev = "?";
                continue;
            }
            String hash = hashOf(line);
            String body = "{" + line.substring(BODY_FROM);
            try {
                JsonNode node = json.readTree(body);
                String claimedPrev = node.path("prev").asText();
                long claimedSeq = node.path("seq").asLong(-1);
                if (!hash.equals(sha256(claimedPrev + body))) {
                    problems.add("line " + n + ": its content does not match its hash (edited)");
                }
                if (!claimedPrev.equals(prev)) {
                    problems.add("line " + n + ": it does not follow the record before it (a record was removed, "
                            + "inserted or reordered)");
                }
                if (claimedSeq != seq + 1) {
                    problems.add("line " + n + ": sequence number " + claimedSeq + " where " + (seq + 1)
                            + " was due");
                }
                seq = claimedSeq;
            } catch (JsonProcessingException e) {
                problems.add("line " + n + ": not JSON (" + e.getOriginalMessage() + ")");
            }
            prev = hash;
        }
        return problems;
    }

    /** Moves whatever follows the last newline (a crash mid-write) to a file of its own. */
    private void setAsideTornTail() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            long end = size;
            ByteBuffer one = ByteBuffer.allocate(1);
            while (end > 0) {
                one.clear();
                ch.read(one, end - 1);
                if (one.get(0) == '\n') {
                    break;
                }
                end--;
            }
            if (end == size) {
                return;
            }
            ByteBuffer torn = ByteBuffer.allocate((int) (size - end));
            ch.read(torn, end);
            Path aside = file.resolveSibling("audit.jsonl.torn-" + System.currentTimeMillis());
            Files.write(aside, torn.array());
            ch.truncate(end);
            ch.force(true);
        }
    }

    /** The last complete line, read backwards from the end (the log is never read whole to append). */
    private Optional<String> lastLine() throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long end = ch.size(); // ends with a newline: the torn tail was set aside first
            if (end == 0) {
                return Optional.empty();
            }
            int chunk = 4096;
            java.io.ByteArrayOutputStream rev = new java.io.ByteArrayOutputStream();
            long pos = end - 1; // skip the final newline
            while (pos > 0) {
                int n = (int) Math.min(chunk, pos);
                ByteBuffer b = ByteBuffer.allocate(n);
                ch.read(b, pos - n);
                byte[] a = b.array();
                for (int i = n - 1; i >= 0; i--) {
                    if (a[i] == '\n') {
                        return Optional.of(reversed(rev.toByteArray()));
                    }
                    rev.write(a[i]);
                }
                pos -= n;
            }
            return Optional.of(reversed(rev.toByteArray()));
        }
    }

    private static String reversed(byte[] bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = bytes[bytes.length - 1 - i];
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    private long seqOf(String line) {
        try {
            return json.readTree("{" + line.substring(BODY_FROM)).path("seq").asLong(0);
        } catch (JsonProcessingException | RuntimeException e) {
            return 0;
        }
    }

    static String hashOf(String line) {
        return line.length() >= PREFIX.length() + 64 ? line.substring(PREFIX.length(), PREFIX.length() + 64) : "";
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is mandatory in every JVM", e);
        }
    }
}
