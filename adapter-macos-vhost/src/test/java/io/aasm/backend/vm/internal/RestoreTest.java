package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restore path (two monitor commands in one write, then QEMU's RESUME event): a template whose state does not
 * load is reported as such and nothing runs, instead of a wait with no end; control: the same copy of the template
 * with its state intact restores and the program's grandchild writes its file. The copies share the module's
 * template RAM by hard link (a restore maps it copy-on-write and never writes it).
 */
class RestoreTest {
    private Path state;

    @AfterEach
    void removeCopy() throws IOException {
        if (state != null) {
            try (Stream<Path> w = Files.walk(state)) {
                w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void aStateThatDoesNotLoadIsReportedAndNothingRuns(@TempDir Path out) throws Exception {
        copyTemplates(true);
        QemuVmBackend b = new QemuVmBackend(Guests.settings("tcg", state));
        try {
            LaunchException e = assertThrows(LaunchException.class, () -> b.runDirect(writer(out)));
            assertTrue(e.getMessage().contains("restoring the template failed"), e.getMessage());
            assertFalse(Files.exists(out.resolve("x")), "the program ran although its guest was never restored");
        } finally {
            b.deactivate();
        }
    }

    @Test
    void controlTheSameCopyWithItsStateIntactRuns(@TempDir Path out) throws Exception {
        copyTemplates(false);
        QemuVmBackend b = new QemuVmBackend(Guests.settings("tcg", state));
        try {
            assertEquals(new ExitDisposition.Exited(0), b.runDirect(writer(out)));
            assertEquals("restored\n", Files.readString(out.resolve("x")));
        } finally {
            b.deactivate();
        }
    }

    private static io.aasm.ports.backend.ExecutionSpec writer(Path out) {
        return Guests.grandchild("echo restored > " + out.resolve("x"), out, Map.of(),
                List.of(Guests.read(), Guests.write(out.toString())));
    }

    /**
     * The module's templates (made first if there are none) copied into a state folder of this test's own, on the
     * same file system; {@code torn}: each state file cut to half its length, as a write interrupted midway.
     */
    private void copyTemplates(boolean torn) throws Exception {
        Guests.backend().runDirect(Guests.grandchild(":", Path.of("/"), Map.of(), List.of(Guests.read())));
        state = Files.createTempDirectory(Guests.STATE.getParent(), "restore-test-");
        try (Stream<Path> dirs = Files.list(Guests.STATE.resolve("templates"))) {
            for (Path t : dirs.filter(d -> Files.isRegularFile(d.resolve("template.json"))).toList()) {
                Path copy = Files.createDirectories(state.resolve("templates").resolve(t.getFileName()));
                Files.createLink(copy.resolve("ram"), t.resolve("ram"));
                Files.copy(t.resolve("template.json"), copy.resolve("template.json"));
                byte[] s = Files.readAllBytes(t.resolve("state"));
                Files.write(copy.resolve("state"), torn ? java.util.Arrays.copyOf(s, s.length / 2) : s);
            }
        }
    }
}
