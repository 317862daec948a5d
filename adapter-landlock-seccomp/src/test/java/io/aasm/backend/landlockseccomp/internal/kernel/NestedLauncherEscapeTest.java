package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.aasm.backend.landlockseccomp.internal.launcher.LauncherBinary;
import io.aasm.backend.landlockseccomp.internal.launcher.PlanEncoder;
import io.aasm.backend.landlockseccomp.internal.launcher.PlanMessage;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockRights;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A confined grandchild re-invokes the launcher itself with a plan that grants the secret: Landlock
 * domains only stack, so the wider grant buys nothing. Control: the same plan outside the boundary
 * reads the secret.
 */
class NestedLauncherEscapeTest {
    @TempDir
    Path tmp;

    @Test
    void relaunchingWithAWiderGrantStaysDenied() throws Exception {
        Harness h = Harness.shared();
        Path secret = Files.writeString(Files.createDirectories(tmp.resolve("secret")).resolve("s"), "NESTED-SECRET");
        Path out = Files.createDirectories(tmp.resolve("out"));
        // a file copy (the backend itself runs a sealed memory copy), readable inside the boundary
        Path launcher = LauncherBinary.extract(tmp.resolve("launcher-cache")).path();
        PlanMessage wider = PlanMessage.builder().program("/bin/sh")
                .argv("sh", "-c", "cat " + secret + " > " + out.resolve("copy"))
                .landlock(LandlockRights.READ, 0, 0)
                .landlockPath(LandlockRights.READ, "/").noNewPrivs().keepFds(0, 1, 2).build();
        Path plan = Files.write(tmp.resolve("wider.plan"), PlanEncoder.encode(wider));
        String action = launcher + " fd:3,4 3< " + plan + " 4>&2";
        h.sh(action, tmp, read(launcher.getParent().toString(), tmp.resolve("wider.plan").toString()), write(out.toString()));
        assertFalse(Files.exists(out.resolve("copy")) && Files.readString(out.resolve("copy")).contains("NESTED-SECRET"),
                "a nested launcher must not widen the boundary");
        Process p = new ProcessBuilder("/bin/sh", "-c", action).start();
        p.waitFor();
        assertEquals("NESTED-SECRET", Files.readString(out.resolve("copy")), "control: outside the boundary the plan reads it");
    }
}
