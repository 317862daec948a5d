package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.aasm.cli.internal.wire.ByteSource;
import io.aasm.cli.internal.wire.FrameException;
import io.aasm.cli.internal.wire.Frames;
import java.io.IOException;
import java.lang.management.ManagementFactory;

/**
 * Coverage-guided fuzzing of what the resident kernel reads from a connection (Jazzer): the frame
 * reader, then the run request's parser, exactly as a connection calls them with the default limits.
 * Whatever bytes arrive, the answer is a request, a {@link FrameException} or a {@link RequestException}
 * (both answered {@code E}, nothing launched), never another exception; and reading never allocates
 * more than {@link #SLACK} beyond four times the bytes that actually arrived, whatever length a head
 * announced (the buffer doubles only once filled, and each doubling copies).
 *
 * <p>Without {@code JAZZER_FUZZ} both methods replay the committed inputs under
 * {@code WireFuzzTestInputs/}; with {@code JAZZER_FUZZ=1} the selected method fuzzes for its
 * {@code maxDuration} (the {@code fuzz} surefire execution of this module; docs/fuzzing.md).
 */
class WireFuzzTest {
    /** What reading may allocate whatever arrived: the first chunk plus the reader's own small objects. */
    static final long SLACK = Frames.FIRST_CHUNK + (64 << 10);

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @FuzzTest(maxDuration = "30s")
    void anyBytesAreARequestOrARefusal(byte[] input) throws IOException {
        check(input);
    }

    /** The same property for a long run by command (see docs/fuzzing.md). */
    @FuzzTest(maxDuration = "2h")
    void longRun(byte[] input) throws IOException {
        check(input);
    }

    static void check(byte[] input) throws IOException {
        Object outcome = read(input);
        if (outcome instanceof byte[] payload && input.length > 4 && input[4] == Frames.RUN) {
            try {
                assertNotNull(Request.parse(payload, ResidentLimits.DEFAULTS));
            } catch (RequestException e) {
                assertNotNull(e.reason());
            }
        }
        // what reading allocates, measured again once warm: a first call also loads and links classes
        long allocated = Math.min(allocation(input), allocation(input));
        assertTrue(allocated <= 4L * input.length + SLACK, "reading " + input.length + " bytes allocated " + allocated);
    }

    private static long allocation(byte[] input) throws IOException {
        long thread = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(thread);
        read(input);
        return THREADS.getThreadAllocatedBytes(thread) - before;
    }

    /** The payload, or the FrameException that refused the bytes. */
    private static Object read(byte[] input) throws IOException {
        Source in = new Source(input);
        try {
            Frames.RequestHead head = Frames.requestHead(in.first(), in, ResidentLimits.DEFAULTS.maxRequestBytes());
            return Frames.payload(head, in);
        } catch (FrameException e) {
            assertNotNull(e.reason());
            assertTrue(!e.getMessage().isEmpty());
            return e;
        }
    }

    /** A connection's bytes: the first read alone (it carries the descriptors), then the rest. */
    private static final class Source implements ByteSource {
        private final byte[] bytes;
        private int at;

        Source(byte[] bytes) {
            this.bytes = bytes;
        }

        int first() {
            return at < bytes.length ? bytes[at++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (at >= bytes.length) {
                return -1;
            }
            int n = Math.min(len, bytes.length - at);
            System.arraycopy(bytes, at, b, off, n);
            at += n;
            return n;
        }
    }
}
