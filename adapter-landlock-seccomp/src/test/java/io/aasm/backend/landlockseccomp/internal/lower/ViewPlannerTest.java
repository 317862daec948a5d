package io.aasm.backend.landlockseccomp.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The order of the view's mounts around private folders; nothing is mounted here. */
class ViewPlannerTest {
    private static Grant g(String path) {
        return new Grant(path, path, List.of());
    }

    private static View plan(List<String> write, List<String> privateDirs, List<String> protectedPaths, String cwd) {
        return ViewPlanner.plan(new ViewPlanner.Input(Optional.of(List.of(g("/usr"))),
                Optional.of(write.stream().map(ViewPlannerTest::g).toList()), false, privateDirs, List.of(),
                protectedPaths.stream().map(ViewPlannerTest::g).toList(), cwd));
    }

    private static int index(View v, View.Kind kind, String target) {
        for (int i = 0; i < v.ops().size(); i++) {
            if (v.ops().get(i).kind() == kind && v.ops().get(i).b().equals(target)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aGrantBeneathAPrivateFolderIsMountedOnTopOfIt() {
        View v = plan(List.of("/tmp/project", "/work"), List.of("/tmp"), List.of(), "/tmp/project");
        int tmpfs = index(v, View.Kind.TMPFS, "/tmp");
        assertTrue(tmpfs >= 0, v.ops().toString());
        assertTrue(index(v, View.Kind.BIND, "/tmp/project") > tmpfs, "after the private /tmp: " + v.ops());
        assertTrue(index(v, View.Kind.BIND, "/work") < tmpfs, "grants elsewhere keep their place: " + v.ops());
        assertEquals(-1, index(v, View.Kind.DIR, "/tmp/project"), "the working directory is the grant itself");
    }

    @Test
    void aasmsOwnStateBeneathAPrivateFolderIsNotBoundIntoIt() {
        View v = plan(List.of("/work"), List.of("/tmp"), List.of("/tmp/aasm-0", "/work/.cache/aasm"), "/work");
        assertEquals(-1, index(v, View.Kind.BIND, "/tmp/aasm-0"), "the private /tmp holds nothing of the host's: "
                + v.ops());
        assertTrue(index(v, View.Kind.BIND, "/work/.cache/aasm") > 0, "control: inside a write grant it stays, "
                + "read-only: " + v.ops());
    }

    @Test
    void aasmsOwnStateInAWriteGrantBeneathAPrivateFolderIsReadOnly() {
        View v = plan(List.of("/tmp/project"), List.of("/tmp"), List.of("/tmp/project/.aasm"), "/tmp/project");
        int state = index(v, View.Kind.BIND, "/tmp/project/.aasm");
        assertTrue(state > index(v, View.Kind.BIND, "/tmp/project"), v.ops().toString());
        assertEquals(View.READ_ONLY, v.ops().get(state).flags() & View.READ_ONLY);
    }

    @Test
    void aWorkingDirectoryInAPrivateFolderIsCreatedThere() {
        View v = plan(List.of("/work"), List.of("/tmp"), List.of(), "/tmp/elsewhere");
        assertTrue(index(v, View.Kind.DIR, "/tmp/elsewhere") > index(v, View.Kind.TMPFS, "/tmp"), v.ops().toString());
        assertFalse(v.ops().isEmpty());
    }

    @Test
    void aGrantAboveAPrivateFolderDoesNotHideIt() {
        View v = plan(List.of("/"), List.of("/tmp"), List.of(), "/work");
        assertTrue(index(v, View.Kind.TMPFS, "/tmp") > index(v, View.Kind.BIND, "/"), "mounted before it, the "
                + "write grant of / would cover the private /tmp with the host's: " + v.ops());
    }

    @Test
    void readGrantsAloneAreReadWriteMountsAndReadOnlyOnceWritesAreStated() {
        View readsOnly = ViewPlanner.plan(new ViewPlanner.Input(Optional.of(List.of(g("/usr"))), Optional.empty(),
                false, List.of(), List.of(), List.of(), "/usr"));
        int usr = index(readsOnly, View.Kind.BIND, "/usr");
        assertEquals(0, readsOnly.ops().get(usr).flags() & View.READ_ONLY, "writes unrestricted: " + readsOnly.ops());
        View both = plan(List.of("/work"), List.of(), List.of(), "/work");
        assertEquals(View.READ_ONLY, both.ops().get(index(both, View.Kind.BIND, "/usr")).flags() & View.READ_ONLY);
    }
}
