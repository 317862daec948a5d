package io.aasm.cli.internal.resident;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The text of one small {@code /proc} file, read with one reused buffer per thread. A caller check reads a
 * dozen such files per connection; {@code Files.readAllLines} gave each read its own 8 KiB byte and 16 KiB char
 * buffers, which made the caller check the resident kernel's largest source of garbage (31 % of the bytes its
 * JVM allocated per launch, in a JFR allocation profile), and so of collector work. The decoding is as
 * strict as before: text that is not valid UTF-8 is an {@link IOException}, which every reader of
 * {@link ProcFacts} turns into "cannot be read" (for a peer: confined).
 */
final class ProcText {
    private static final int FIRST = 4096;
    private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[FIRST]);

    private ProcText() {
    }

    /** The whole file; a file larger than the buffer grows this thread's buffer (to at most 1 MiB kept). */
    static String read(Path file) throws IOException {
        byte[] buf = BUFFER.get();
        int n = 0;
        try (FileInputStream in = new FileInputStream(file.toFile())) {
            for (int r; (r = in.read(buf, n, buf.length - n)) > 0;) {
                n += r;
                if (n == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                    if (buf.length <= 1 << 20) {
                        BUFFER.set(buf);
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (buf[i] < 0) { // not ASCII: decoded strictly, as Files.readAllLines did
                return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(buf, 0, n)).toString();
            }
        }
        return new String(buf, 0, n, StandardCharsets.ISO_8859_1); // ASCII: one copy, no decoder
    }

    /** The lines of {@code text} (no line terminators; a last line without one counts), like readAllLines. */
    static String[] lines(String text) {
        if (text.isEmpty()) {
            return new String[0];
        }
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return body.split("\n", -1);
    }
}
