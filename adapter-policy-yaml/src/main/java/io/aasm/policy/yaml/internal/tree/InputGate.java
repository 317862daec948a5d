package io.aasm.policy.yaml.internal.tree;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Checks raw input before any YAML parsing: size first (cheap, bounds all later work), then UTF-8. */
public final class InputGate {
    public static final int MAX_BYTES = 256 * 1024;

    private InputGate() {
    }

    /** Decoded text, or empty with the problem recorded. */
    public static Optional<String> decode(byte[] bytes, Problems problems) {
        if (bytes.length > MAX_BYTES) {
            tooLarge(bytes.length, problems);
            return Optional.empty();
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            int[] lc = lineColumnOfByte(bytes, in.position());
            problems.add(lc[0], lc[1], String.format("the file is not valid UTF-8 (byte 0x%02X at offset %d)",
                    bytes[in.position()] & 0xff, in.position()), "save the policy as UTF-8 text");
            return Optional.empty();
        }
        decoder.flush(out);
        String text = out.flip().toString();
        // A UTF-8 byte order mark is harmless; strip it so columns on line 1 stay right.
        return Optional.of(text.startsWith("\uFEFF") ? text.substring(1) : text);
    }

    /** The same size rule for text handed over directly (measured in UTF-8 bytes). */
    public static boolean withinLimit(String text, Problems problems) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        if (bytes > MAX_BYTES) {
            tooLarge(bytes, problems);
            return false;
        }
        return true;
    }

    public static void tooLarge(long bytes, Problems problems) {
        problems.add(0, 0, "the policy file is too large (" + bytes + " bytes; the limit is " + MAX_BYTES
                + " bytes = 256 KiB)", "a policy is a short text; split out or remove generated content");
    }

    private static int[] lineColumnOfByte(byte[] bytes, int offset) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset; i++) {
            if (bytes[i] == '\n') {
                line++;
                column = 1;
            } else if ((bytes[i] & 0xC0) != 0x80) {
                column++; // count code points, not continuation bytes
            }
        }
        return new int[] {line, column};
    }
}
