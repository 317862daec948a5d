package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel's refusal names no flag; the command line adds the flag advice from the refusal token.
 * Each refusal has a control that differs by the one flag the advice names.
 */
class RefusalAdviceIT {

    @Test
    void aPinnedBackendWithoutABoundaryIsRefusedWithTheFlagAdvice(@TempDir Path dir) throws Exception {
        Path created = dir.resolve("created");
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "none",
                "--isolation-backend", "aasm-native", "--", "sh", "-c", "touch " + created);
        assertEquals(125, r.exit(), r.toString());
        assertTrue(r.err().contains("isolation class is none") && r.err().contains("[backend_pinned_without_boundary]"),
                r.toString());
        assertTrue(r.err().contains("aasm: hint: --isolation-backend needs --isolation auto (or process)"), r.toString());
        assertFalse(Files.exists(created), "a refused launch ran the program");
        // control: the same without the pinned backend runs
        Aasm.Result control = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", "touch " + created);
        assertEquals(0, control.exit(), control.toString());
        assertTrue(Files.exists(created), control.toString());
        assertFalse(control.err().contains("hint:"), control.toString());
    }

    @Test
    void anUnknownPinnedBackendNamesTheInstalledOnesAndTheCommandThatListsThem(@TempDir Path dir) throws Exception {
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "process",
                "--isolation-backend", "no-such-backend", "--dry-run", "--", "/bin/true");
        assertEquals(0, r.exit(), "a dry run previews a refusal\n" + r);
        assertTrue(r.err().contains("warning: the pinned backend no-such-backend is not installed here"), r.toString());
        assertTrue(r.err().contains("warning: hint: --isolation-backend takes an installed backend id: see `aasm backends`"),
                r.toString());
    }
}
