package io.aasm.cli.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Wire version 1 framing: what is accepted, and a clear error for each way a frame can be wrong. */
class FramesTest {
    /** The first byte is read separately in the kernel (it carries the descriptors); this mimics it. */
    private static Frames.RequestHead head(byte[] frame) throws Exception {
        ByteArrayInputStream in = new ByteArrayInputStream(frame);
        return Frames.requestHead(in.read(), in::read);
    }

    private static String error(byte[] frame) {
        return assertThrows(FrameException.class, () -> {
            ByteArrayInputStream in = new ByteArrayInputStream(frame);
            Frames.payload(Frames.requestHead(in.read(), in::read), in::read);
        }).getMessage();
    }

    @Test
    void aRequestRoundTrips() throws Exception {
        byte[] payload = "1\0/h\0".getBytes(StandardCharsets.UTF_8);
        byte[] frame = Frames.request(Frames.RUN, payload);
        ByteArrayInputStream in = new ByteArrayInputStream(frame);
        Frames.RequestHead h = Frames.requestHead(in.read(), in::read);
        assertEquals(new Frames.RequestHead(Frames.RUN, payload.length), h);
        assertArrayEquals(payload, Frames.payload(h, in::read));
        // the C client's bytes for a status request, written out by hand
        assertEquals(new Frames.RequestHead(Frames.STATUS, 0), head(new byte[] {'A', 'A', 'S', 'M', 'Q', 0, 0, 0, 0}));
    }

    @Test
    void answersRoundTrip() throws Exception {
        ByteArrayInputStream x = new ByteArrayInputStream(Frames.exit(-1));
        assertEquals(new Frames.Answer(Frames.EXIT, -1, ""), Frames.answer(x::read));
        ByteArrayInputStream e = new ByteArrayInputStream(Frames.text(Frames.ERROR, "nö"));
        assertEquals(new Frames.Answer(Frames.ERROR, 0, "nö"), Frames.answer(e::read));
    }

    @Test
    void aTruncatedHeadOrPayloadSaysWhereItEnded() {
        byte[] frame = Frames.request(Frames.RUN, new byte[10]);
        assertEquals("truncated request head: the connection closed after 3 of 8 bytes",
                error(Arrays.copyOf(frame, 4)));
        assertEquals("truncated request payload: the connection closed after 4 of 10 bytes",
                error(Arrays.copyOf(frame, 13)));
        assertEquals("the connection closed before a request arrived", error(new byte[0]));
    }

    @Test
    void anOversizeRequestIsRefusedBeforeItsPayloadIsRead() {
        byte[] frame = {'A', 'A', 'S', 'M', 'R', (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        assertEquals("request too large (4294967295 bytes, at most 4194304)", error(frame));
        byte[] justOver = Frames.request(Frames.RUN, new byte[0]);
        justOver[6] = 0x40;
        justOver[8] = 1; // 4 MiB + 1
        assertEquals("request too large (4194305 bytes, at most 4194304)", error(justOver));
    }

    @Test
    void anUnknownKindOrMagicIsNamed() {
        assertEquals("unknown request kind 'Z'", error(new byte[] {'A', 'A', 'S', 'M', 'Z', 0, 0, 0, 0}));
        assertEquals("unknown request kind 0x00", error(new byte[] {'A', 'A', 'S', 'M', 0, 0, 0, 0, 0}));
        assertEquals("not an aasm client request (no AASM magic)", error("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aBadAnswerIsNamed() {
        ByteArrayInputStream unknown = new ByteArrayInputStream(new byte[] {'Y', 0, 0, 0, 0});
        assertEquals("unknown answer kind 'Y' from the resident kernel",
                assertThrows(FrameException.class, () -> Frames.answer(unknown::read)).getMessage());
        ByteArrayInputStream cut = new ByteArrayInputStream(new byte[] {'I', 0, 0, 0, 9, 'a'});
        assertEquals("truncated answer text: the connection closed after 1 of 9 bytes",
                assertThrows(FrameException.class, () -> Frames.answer(cut::read)).getMessage());
    }

    @Test
    void theStatusLineRoundTrips() {
        DaemonStatus s = new DaemonStatus(42, 7, 3, java.nio.file.Path.of("/run/user/1000/aasm.sock"));
        assertEquals("running pid=42 uptime=7s connections=3 socket=/run/user/1000/aasm.sock", s.line());
        assertEquals(java.util.Optional.of(s), DaemonStatus.parse(s.line()));
        assertEquals(java.util.Optional.empty(), DaemonStatus.parse("not running"));
    }
}
