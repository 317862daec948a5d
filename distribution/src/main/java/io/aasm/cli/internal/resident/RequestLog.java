package io.aasm.cli.internal.resident;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One JSON line per request ({@code aasm-requests.log} next to the socket, 0600), whatever came of it:
 * accepted, refused, malformed, answered cold or abandoned. Rotated by size: {@code log.max.bytes}, with
 * {@code log.files} files kept ({@code aasm-requests.log}, {@code .1}, {@code .2}, ...). A line holds
 * counts, a digest of the arguments and fixed reason tokens; never an argument, an environment name or
 * value, a path the client sent or any file's content. A log that cannot be written never fails a
 * request: the first failure is said once on the kernel's stderr.
 */
final class RequestLog {
    private final Path file;
    private final long maxBytes;
    private final int files;
    private final Consumer<String> complain;
    private FileChannel out;
    private long size;
    private boolean complained;

    RequestLog(Path file, ResidentLimits limits, Consumer<String> complain) {
        this.file = file;
        this.maxBytes = limits.logMaxBytes();
        this.files = limits.logFiles();
        this.complain = complain;
    }

    Path file() {
        return file;
    }

    /** Appends {@code entry} as one line (with the time first); rotates first when it would not fit. */
    synchronized void write(Entry entry) {
        byte[] line = entry.line(Instant.now()).getBytes(StandardCharsets.UTF_8);
        try {
            if (out != null && size > 0 && size + line.length > maxBytes) {
                rotate();
            }
            if (out == null) {
                open();
            }
            ByteBuffer b = ByteBuffer.wrap(line);
            while (b.hasRemaining()) {
                out.write(b);
            }
            size += line.length;
        } catch (IOException e) {
            closeQuietly();
            if (!complained) {
                complained = true;
                complain.accept("cannot write the request log " + file + ": " + e.getMessage());
            }
        }
    }

    private void open() throws IOException {
        var mode = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
        out = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND, java.nio.file.LinkOption.NOFOLLOW_LINKS), mode);
        size = out.size();
    }

    private void rotate() throws IOException {
        closeQuietly();
        Files.deleteIfExists(rotated(files - 1));
        for (int i = files - 2; i >= 1; i--) {
            if (Files.exists(rotated(i))) {
                Files.move(rotated(i), rotated(i + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (files > 1) {
            Files.move(file, rotated(1), StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.delete(file);
        }
    }

    Path rotated(int i) {
        return i == 0 ? file : file.resolveSibling(file.getFileName() + "." + i);
    }

    synchronized void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                // nothing more to lose
            }
            out = null;
        }
    }

    /** The fields of one line, in the order written; built by a connection as it learns them. */
    static final class Entry {
        private final StringBuilder fields = new StringBuilder();
        private String event;
        private String reason;

        /** What came of the request; the first decision stands (a later failure does not rewrite it). */
        Entry outcome(String event, String reason) {
            if (this.event == null) {
                this.event = event;
                this.reason = reason;
            }
            return this;
        }

        Entry put(String name, String value) {
            fields.append(",\"").append(name).append("\":");
            quote(fields, value);
            return this;
        }

        /** The arguments as {@code argc} and {@code args_sha256} (each followed by a NUL): which call, not what it said. */
        Entry arguments(List<String> args) {
            try {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                for (String a : args) {
                    md.update(a.getBytes(StandardCharsets.UTF_8));
                    md.update((byte) 0);
                }
                return put("argc", args.size()).put("args_sha256", HexFormat.of().formatHex(md.digest()));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java has SHA-256", e);
            }
        }

        Entry put(String name, long value) {
            fields.append(",\"").append(name).append("\":").append(value);
            return this;
        }

        String line(Instant at) {
            StringBuilder sb = new StringBuilder("{\"time\":");
            quote(sb, at.toString());
            sb.append(",\"event\":");
            quote(sb, event == null ? "failed" : event);
            if (reason != null) {
                sb.append(",\"reason\":");
                quote(sb, reason);
            }
            return sb.append(fields).append("}\n").toString();
        }

        private static void quote(StringBuilder sb, String s) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    default -> {
                        if (c < 0x20 || c == 0x7f || (c >= 0x80 && !Character.isLetterOrDigit(c))) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            sb.append('"');
        }
    }
}
