package io.aasm.backend.vm.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grants add up: a folder granted for reading inside a write grant stays writable, one read-write share (the
 * conformance suite's hard-link controls, as the kernel hands them over: write [ws], read [ws/out]). Control:
 * aasm's own state inside the same write grant is still its own read-only share.
 */
class ShareLayoutTest {
    @Test
    void aReadGrantInsideAWriteGrantIsNotNarrowedToReadOnly(@TempDir Path tmp) throws Exception {
        Path ws = tmp.toRealPath();
        Path out = Files.createDirectories(ws.resolve("out"));
        ShareLayout.Layout l = (ShareLayout.Layout) ShareLayout.layout(Optional.of(List.of(out.toString())),
                Optional.of(List.of(ws.toString())), List.of(), List.of(), 12);
        assertEquals(List.of(new ShareLayout.Slot(0, ws.toString(), false)), l.slots());
        // the same with the write grant of out/ that the kernel would have folded into the workspace's
        l = (ShareLayout.Layout) ShareLayout.layout(Optional.of(List.of(out.toString())),
                Optional.of(List.of(out.toString(), ws.toString())), List.of(), List.of(), 12);
        assertEquals(List.of(new ShareLayout.Slot(0, ws.toString(), false)), l.slots());
    }

    @Test
    void aasmsOwnStateInsideAWriteGrantStaysReadOnly(@TempDir Path tmp) throws Exception {
        Path ws = tmp.toRealPath();
        Path state = Files.createDirectories(ws.resolve("state"));
        ShareLayout.Layout l = (ShareLayout.Layout) ShareLayout.layout(Optional.of(List.of(state.toString())),
                Optional.of(List.of(ws.toString())), List.of(), List.of(state.toString()), 12);
        assertEquals(List.of(new ShareLayout.Slot(0, ws.toString(), false), new ShareLayout.Slot(1, state.toString(),
                true)), l.slots());
    }
}
