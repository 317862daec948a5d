package io.aasm.support.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A canary's object compared where the kernel will find it: links resolved, a missing tail kept. */
class CanaryPathsTest {
    @TempDir
    Path t;

    @Test
    void aLinkIsResolvedAndAMissingTailAppended() throws Exception {
        Path real = Files.createDirectories(t.resolve("real"));
        Path link = Files.createSymbolicLink(t.resolve("link"), real);
        assertEquals(real.toRealPath().resolve("not/yet").toString(),
                CanaryPaths.realOrNearest(link.resolve("not/yet")), "the existing part through its link");
        // control: without a link the path is its own real path
        assertEquals(real.toRealPath().toString(), CanaryPaths.realOrNearest(real));
        assertEquals(real.toRealPath().toString(), CanaryPaths.realOrNearest(link.resolve("x/..")), "normalised");
    }
}
