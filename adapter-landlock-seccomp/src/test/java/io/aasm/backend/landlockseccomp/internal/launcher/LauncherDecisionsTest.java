package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With DECISIONS, every call the program's filter denies is answered by the launcher's init and counted:
 * the program sees the same EPERM (the folders are not made, mkdir says so), and the launcher reports how
 * many and which. Control: the same filter without DECISIONS denies the same calls and reports nothing.
 */
class LauncherDecisionsTest {
    @TempDir
    Path dir;

    private static final int MKDIR = 83;

    private LauncherFixture.Result run(boolean record, String tag) throws IOException {
        String script = "for d in a b c; do /bin/mkdir " + dir.resolve(tag + "-$d") + " 2>> " + dir.resolve(tag + ".err")
                + "; done; exit 0";
        PlanMessage.Builder b = LauncherFixture.sh(script).noNewPrivs().seccomp(0, LauncherRunTest.denyMkdir());
        return LauncherFixture.run((record ? b.decisions(0) : b).build(), dir);
    }

    @Test
    void deniedCallsAreAnsweredTheSameAndCounted() throws IOException {
        LauncherFixture.Result r = run(true, "rec");
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        for (String d : new String[] {"a", "b", "c"}) {
            assertFalse(Files.exists(dir.resolve("rec-" + d)), "a denied mkdir made nothing");
        }
        assertEquals(3, Files.readString(dir.resolve("rec.err")).split("Operation not permitted", -1).length - 1,
                "the program saw EPERM for each, as without records");
        RecordedDecisions d = r.process().decisions().orElseThrow(() -> new AssertionError(r.toString()));
        assertEquals(3, d.total(), d.toString());
        assertEquals(3L, d.counts().get(MKDIR), d.toString());
        assertEquals(3, d.latest().size());
        assertTrue(d.latest().stream().allMatch(s -> s.nr() == MKDIR && s.pid() > 0), d.toString());
        assertTrue(d.unavailable().isEmpty());
    }

    @Test
    void withoutDecisionsTheSameDenialsAreNotRecorded() throws IOException {
        LauncherFixture.Result r = run(false, "plain");
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        assertFalse(Files.exists(dir.resolve("plain-a")));
        assertEquals(3, Files.readString(dir.resolve("plain.err")).split("Operation not permitted", -1).length - 1);
        assertTrue(r.process().decisions().isEmpty(), "control: no decision lines");
    }
}
