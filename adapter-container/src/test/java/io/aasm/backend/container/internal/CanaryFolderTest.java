package io.aasm.backend.container.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.support.canary.CanaryHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read canary's folder is shared by every launch of the supervisor, which is only as strong as a folder
 * per launch if no launch can change it: it is part of the backend's own state, so a write grant of its
 * parent leaves it read-only in the view. The control is the same write beside it, in the same grant.
 */
class CanaryFolderTest {
    @TempDir
    Path t;

    @Test
    void aWriteGrantAroundTheCanaryFolderCannotChangeIt() throws Exception {
        Harness h = Harness.shared();
        Path root = Settings.defaults().withProbeCacheDir(Harness.cacheDir()).canaryRoot();
        Path shared = CanaryHome.folder(root).toRealPath();
        Path read = CanaryHome.readFile(shared);
        String before = Files.readString(read);
        Path parent = root.toRealPath().getParent();
        Path forged = shared.resolve("forged-" + UUID.randomUUID());
        Path sibling = parent.resolve("aasm-test-sibling-" + UUID.randomUUID());
        try {
            h.sh("echo forged > " + forged + "; echo replaced > " + read + "; echo ok > " + sibling, t, Harness.read(),
                    Harness.write(parent.toString()));
            assertFalse(Files.exists(forged), "nothing was created in the canary folder");
            assertEquals(before, Files.readString(read), "the read canary's file is unchanged byte for byte");
            assertTrue(Files.exists(sibling), "control: the same write beside it, in the same grant, worked");
        } finally {
            Files.deleteIfExists(forged);
            Files.deleteIfExists(sibling);
        }
    }
}
