package io.aasm.backend.vm.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder granted for reading and writing inside a wider write grant is one read-write share with it (the
 * conformance suite's hard-link controls: write [ws, ws/out], read [ws/out]); control: a folder granted only
 * for reading inside a write grant is still its own read-only share.
 */
class ShareLayoutTest {
    @Test
    void aPathAlsoGrantedForWritingIsNotNarrowedToReadOnly(@TempDir Path tmp) throws Exception {
        Path ws = tmp.toRealPath();
        Path out = Files.createDirectories(ws.resolve("out"));
        ShareLayout.Layout l = (ShareLayout.Layout) ShareLayout.layout(Optional.of(List.of(out.toString())),
                Optional.of(List.of(out.toString(), ws.toString())), List.of(), List.of(), 12);
        assertEquals(List.of(new ShareLayout.Slot(0, ws.toString(), false)), l.slots());
    }

    @Test
    void aPathGrantedOnlyForReadingInsideAWriteGrantStaysReadOnly(@TempDir Path tmp) throws Exception {
        Path ws = tmp.toRealPath();
        Path ro = Files.createDirectories(ws.resolve("ro"));
        ShareLayout.Layout l = (ShareLayout.Layout) ShareLayout.layout(Optional.of(List.of(ro.toString())),
                Optional.of(List.of(ws.toString())), List.of(), List.of(), 12);
        assertEquals(List.of(new ShareLayout.Slot(0, ws.toString(), false), new ShareLayout.Slot(1, ro.toString(), true)),
                l.slots());
    }
}
