package io.aasm.cli.internal.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The resident kernel's wire format, version 1 (integers big-endian; {@code docs/resident.md}), spoken
 * by {@code bin/aasm-client} (C), the kernel's connections and the {@code aasm daemon} commands. Only
 * the framing lives here: the payload of a run request is {@code Request}'s.
 *
 * <pre>
 * request  "AASM" kind:u8 len:u32 payload   kind R run | Q status | T stop
 * client   'S' signo:u8                     a signal the client received
 * kernel   'X' status:i32                   exit status, last frame
 *          'E' | 'F' | 'I' len:u32 text     refused | run cold | information
 * </pre>
 */
public final class Frames {
    public static final int MAX_PAYLOAD = 4 << 20;
    public static final byte RUN = 'R';
    public static final byte STATUS = 'Q';
    public static final byte STOP = 'T';
    public static final byte SIGNAL = 'S';
    public static final byte EXIT = 'X';
    public static final byte ERROR = 'E';
    public static final byte COLD = 'F';
    public static final byte INFO = 'I';
    private static final byte[] MAGIC = {'A', 'A', 'S', 'M'};

    private Frames() {
    }

    /** A request's kind and payload length, checked before a byte of the payload is read. */
    public record RequestHead(byte kind, int length) {
    }

    /** One kernel answer: {@code status} for {@link #EXIT}, {@code text} for the others. */
    public record Answer(byte kind, int status, String text) {
    }

    /**
     * Reads and checks a request's head. {@code first} is its first byte when it was already read (it
     * carries the descriptors), or -1 for the end of the stream; the other eight come from {@code in}.
     */
    public static RequestHead requestHead(int first, ByteSource in) throws IOException, FrameException {
        if (first < 0) {
            throw new FrameException("the connection closed before a request arrived");
        }
        byte[] rest = new byte[8];
        readFully(in, rest, "request head");
        if (first != MAGIC[0] || rest[0] != MAGIC[1] || rest[1] != MAGIC[2] || rest[2] != MAGIC[3]) {
            throw new FrameException("not an aasm client request (no AASM magic)");
        }
        byte kind = rest[3];
        if (kind != RUN && kind != STATUS && kind != STOP) {
            throw new FrameException("unknown request kind " + describe(kind));
        }
        long len = u32(rest, 4);
        if (len > MAX_PAYLOAD) {
            throw new FrameException("request too large (" + len + " bytes, at most " + MAX_PAYLOAD + ")");
        }
        return new RequestHead(kind, (int) len);
    }

    /** The payload a head announced. */
    public static byte[] payload(RequestHead head, ByteSource in) throws IOException, FrameException {
        byte[] p = new byte[head.length()];
        readFully(in, p, "request payload");
        return p;
    }

    public static byte[] request(byte kind, byte[] payload) {
        byte[] f = new byte[9 + payload.length];
        System.arraycopy(MAGIC, 0, f, 0, 4);
        f[4] = kind;
        putInt(f, 5, payload.length);
        System.arraycopy(payload, 0, f, 9, payload.length);
        return f;
    }

    public static byte[] text(byte kind, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        byte[] f = new byte[5 + t.length];
        f[0] = kind;
        putInt(f, 1, t.length);
        System.arraycopy(t, 0, f, 5, t.length);
        return f;
    }

    public static byte[] exit(int status) {
        byte[] f = new byte[5];
        f[0] = EXIT;
        putInt(f, 1, status);
        return f;
    }

    /** Reads one kernel answer. */
    public static Answer answer(ByteSource in) throws IOException, FrameException {
        byte[] head = new byte[5];
        readFully(in, head, "answer");
        byte kind = head[0];
        if (kind == EXIT) {
            return new Answer(kind, (int) u32(head, 1), "");
        }
        if (kind != ERROR && kind != COLD && kind != INFO) {
            throw new FrameException("unknown answer kind " + describe(kind) + " from the resident kernel");
        }
        long len = u32(head, 1);
        if (len > MAX_PAYLOAD) {
            throw new FrameException("answer too large (" + len + " bytes) from the resident kernel");
        }
        byte[] text = new byte[(int) len];
        readFully(in, text, "answer text");
        return new Answer(kind, 0, new String(text, StandardCharsets.UTF_8));
    }

    private static void readFully(ByteSource in, byte[] b, String what) throws IOException, FrameException {
        int done = 0;
        while (done < b.length) {
            int n = in.read(b, done, b.length - done);
            if (n < 0) {
                throw new FrameException("truncated " + what + ": the connection closed after " + done + " of "
                        + b.length + " bytes");
            }
            done += n;
        }
    }

    private static String describe(byte kind) {
        return kind >= 0x21 && kind < 0x7f ? "'" + (char) kind + "'" : String.format("0x%02x", kind & 0xff);
    }

    private static long u32(byte[] b, int at) {
        return ((b[at] & 0xffL) << 24) | ((b[at + 1] & 0xffL) << 16) | ((b[at + 2] & 0xffL) << 8) | (b[at + 3] & 0xffL);
    }

    private static void putInt(byte[] f, int at, int v) {
        f[at] = (byte) (v >>> 24);
        f[at + 1] = (byte) (v >>> 16);
        f[at + 2] = (byte) (v >>> 8);
        f[at + 3] = (byte) v;
    }
}
