package io.aasm.backend.landlockseccomp.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which read grants may carry truncate: only those the view binds read-only with nothing writable beneath. */
class ReadOnlyTruncateTest {
    private static Grant g(String path) {
        return new Grant(path, path, List.of());
    }

    private static List<Grant> gs(List<String> paths) {
        return paths.stream().map(ReadOnlyTruncateTest::g).toList();
    }

    private static Set<String> of(List<String> read, List<String> write, List<String> privateDirs, boolean freshProc) {
        View v = ViewPlanner.plan(new ViewPlanner.Input(Optional.of(gs(read)), Optional.of(gs(write)), freshProc,
                privateDirs, List.of(), List.of(), "/"));
        return ReadOnlyTruncate.paths(v, gs(read), gs(write));
    }

    @Test
    void aReadOnlyBindWithAWriteGrantBeneathQualifies() {
        assertEquals(Set.of("/usr", "/srv/tree"), of(List.of("/usr", "/srv/tree"), List.of("/srv/tree/scratch"),
                List.of(), false));
    }

    @Test
    void aPrivateFolderBeneathKeepsTheGrantAsItWas() {
        // the private folder is a writable tmpfs whose own rule would still have truncate, but nothing that is not a
        // read-only bind or a write grant's bind is accepted beneath a grant that gains truncate
        assertEquals(Set.of("/usr"), of(List.of("/usr", "/srv"), List.of("/out"), List.of("/srv/tmp"), false));
    }

    @Test
    void theRootAndProcNeverQualify() {
        assertEquals(Set.of(), of(List.of("/", "/proc/self"), List.of("/out"), List.of(), true));
    }

    @Test
    void aGrantAlsoWrittenOrCoveredByAWriteGrantDoesNotQualify() {
        // /work is bound read-write (the write grant covers the read grant beneath it): no read-only bind at /work/ref
        assertEquals(Set.of(), of(List.of("/work/ref", "/out"), List.of("/work", "/out"), List.of(), false));
    }

    @Test
    void withoutAnEmptyRootNothingQualifies() {
        View hostRoot = new View(View.Base.HOST_READ_ONLY, List.of(new View.Op(View.Kind.BIND, View.READ_ONLY,
                "/usr", "/usr")), List.of());
        assertEquals(Set.of(), ReadOnlyTruncate.paths(hostRoot, List.of(g("/usr")), List.of()));
    }

    @Test
    void aReadWriteBindOrTmpfsBeneathDisqualifies() {
        View v = new View(View.Base.EMPTY, List.of(new View.Op(View.Kind.BIND, View.READ_ONLY, "/a", "/a"),
                new View.Op(View.Kind.BIND, 0, "/elsewhere", "/a/rw"),
                new View.Op(View.Kind.BIND, View.READ_ONLY, "/b", "/b"),
                new View.Op(View.Kind.TMPFS, 0, "mode=0755", "/b/t"),
                new View.Op(View.Kind.BIND, View.READ_ONLY, "/c", "/c"),
                new View.Op(View.Kind.BIND, View.READ_ONLY, "/c/d", "/c/d")), List.of());
        assertEquals(Set.of("/c"), ReadOnlyTruncate.paths(v, List.of(g("/a"), g("/b"), g("/c")), List.of()));
    }
}
