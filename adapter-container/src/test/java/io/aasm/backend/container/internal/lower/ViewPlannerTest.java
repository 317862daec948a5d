package io.aasm.backend.container.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The view's decisions against a folder tree of the test's own (no engine needed). */
class ViewPlannerTest {
    @TempDir
    Path t;

    private ViewPlanner.Input input(Optional<List<String>> read, Optional<List<String>> write, List<String> priv,
                                    List<Path> prot, List<Path> sockets, Optional<Path> dataRoot, List<Grant> tree) {
        return new ViewPlanner.Input(read, write, priv, prot, sockets, dataRoot, tree, List.of());
    }

    private static Map<String, Mount> byTarget(ViewPlanner.Result r) {
        return ((ViewPlanner.Result.Planned) r).mounts().stream().collect(Collectors.toMap(Mount::target, m -> m));
    }

    @Test
    void readGrantsAreReadOnlyWriteGrantsWritableAndPrivateFoldersTmpfs() throws Exception {
        Path r = Files.createDirectories(t.resolve("r"));
        Path w = Files.createDirectories(t.resolve("w"));
        Map<String, Mount> m = byTarget(ViewPlanner.plan(input(Optional.of(List.of(r.toString())),
                Optional.of(List.of(w.toString())), List.of("/tmp"), List.of(), List.of(), Optional.empty(), List.of())));
        assertEquals(new Mount.Bind(r.toRealPath().toString(), r.toString(), true), m.get(r.toString()));
        assertEquals(new Mount.Bind(w.toRealPath().toString(), w.toString(), false), m.get(w.toString()));
        assertEquals(new Mount.Tmpfs("/tmp", false), m.get("/tmp"));
    }

    @Test
    void withoutAWriteStatementTheReadGrantsAreWritableAsWithAasmNative() throws Exception {
        Path r = Files.createDirectories(t.resolve("r"));
        Map<String, Mount> m = byTarget(ViewPlanner.plan(input(Optional.of(List.of(r.toString())), Optional.empty(),
                List.of(), List.of(), List.of(), Optional.empty(), List.of())));
        assertFalse(((Mount.Bind) m.get(r.toString())).readOnly());
    }

    @Test
    void aReadGrantInsideAWriteGrantDoesNotMakePartOfItReadOnly() throws Exception {
        Path w = Files.createDirectories(t.resolve("w"));
        Path inner = Files.createDirectories(w.resolve("inner"));
        Map<String, Mount> m = byTarget(ViewPlanner.plan(input(Optional.of(List.of(inner.toString())),
                Optional.of(List.of(w.toString())), List.of(), List.of(), List.of(), Optional.empty(), List.of())));
        assertFalse(m.containsKey(inner.toString()));
    }

    @Test
    void aGrantThroughASymlinkBindsWhatItResolvesToAtThePathAsWrittenAndSaysSo() throws Exception {
        Path real = Files.createDirectories(t.resolve("real"));
        Path link = Files.createSymbolicLink(t.resolve("link"), real);
        ViewPlanner.Result r = ViewPlanner.plan(input(Optional.of(List.of(link.toString())), Optional.of(List.of()),
                List.of(), List.of(), List.of(), Optional.empty(), List.of()));
        assertEquals(new Mount.Bind(real.toRealPath().toString(), link.toString(), true), byTarget(r).get(link.toString()));
        String steps = String.join(" ", ((ViewPlanner.Result.Planned) r).steps().get(CapabilityDomain.FILESYSTEM_READ));
        assertTrue(steps.contains("resolved to " + real.toRealPath()), steps);
    }

    @Test
    void aasmsOwnStateStaysReadOnlyInsideAWriteGrantAndAWriteGrantInsideItRefuses() throws Exception {
        Path w = Files.createDirectories(t.resolve("w"));
        Path own = Files.createDirectories(w.resolve("cache/aasm"));
        Map<String, Mount> m = byTarget(ViewPlanner.plan(input(Optional.of(List.of()), Optional.of(List.of(w.toString())),
                List.of(), List.of(own.toRealPath()), List.of(), Optional.empty(), List.of())));
        assertEquals(new Mount.Bind(own.toRealPath().toString(), own.toString(), true), m.get(own.toString()));
        ViewPlanner.Result inside = ViewPlanner.plan(input(Optional.of(List.of()), Optional.of(List.of(own.toString())),
                List.of(), List.of(own.toRealPath()), List.of(), Optional.empty(), List.of()));
        assertInstanceOf(ViewPlanner.Result.Refused.class, inside);
        assertEquals(CapabilityDomain.FILESYSTEM_WRITE, ((ViewPlanner.Result.Refused) inside).domain());
    }

    @Test
    void theEnginesSocketUnderAGrantIsMaskedWhereverTheGrantShowsIt() throws Exception {
        Path dir = Files.createDirectories(t.resolve("run"));
        Path sock = Files.createFile(dir.resolve("docker.sock"));
        Path link = Files.createSymbolicLink(t.resolve("var-run"), dir);
        Map<String, Mount> m = byTarget(ViewPlanner.plan(input(Optional.of(List.of(link.toString())), Optional.empty(),
                List.of(), List.of(), List.of(sock.toRealPath()), Optional.empty(), List.of())));
        assertEquals(new Mount.MaskFile(link + "/docker.sock"), m.get(link + "/docker.sock"));
    }

    @Test
    void aFolderHoldingTheEnginesDataRootIsBoundEntryByEntryBesideItAndAGrantInsideItRefuses() throws Exception {
        Path var = Files.createDirectories(t.resolve("var"));
        Files.createDirectories(var.resolve("log"));
        Path lib = Files.createDirectories(var.resolve("lib"));
        Files.createDirectories(lib.resolve("apt"));
        Path root = Files.createDirectories(lib.resolve("docker"));
        Files.writeString(var.resolve("note"), "x");
        Grant g = new Grant("/var", var.toRealPath().toString());
        Map<String, Mount> m = byTarget(ViewPlanner.plan(input(Optional.empty(), Optional.empty(), List.of(), List.of(),
                List.of(), Optional.of(root.toRealPath()), List.of(g))));
        assertEquals(Map.of("/var/log", false, "/var/note", false, "/var/lib/apt", false), m.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> ((Mount.Bind) e.getValue()).readOnly())));
        ViewPlanner.Result inside = ViewPlanner.plan(input(Optional.of(List.of(root.toString())), Optional.empty(),
                List.of(), List.of(), List.of(), Optional.of(root.toRealPath()), List.of()));
        assertInstanceOf(ViewPlanner.Result.Refused.class, inside);
    }

    @Test
    void withoutAReadStatementTheHostsFoldersAreThereReadOnlyBesideTheWriteGrants() throws Exception {
        Path usr = Files.createDirectories(t.resolve("usr"));
        Path w = Files.createDirectories(t.resolve("w"));
        Map<String, Mount> m = byTarget(ViewPlanner.plan(input(Optional.empty(), Optional.of(List.of(w.toString())),
                List.of(), List.of(), List.of(), Optional.empty(), List.of(new Grant("/usr", usr.toString())))));
        assertTrue(((Mount.Bind) m.get("/usr")).readOnly());
        assertFalse(((Mount.Bind) m.get(w.toString())).readOnly());
    }

    @Test
    void theEnginesPseudoFilesystemsAreItsOwnAndOnlyItsStandardDevicesExist() {
        assertInstanceOf(ViewPlanner.Result.Planned.class, ViewPlanner.plan(input(Optional.of(List.of("/proc", "/dev")),
                Optional.of(List.of("/dev/null")), List.of(), List.of(), List.of(), Optional.empty(), List.of())));
        assertInstanceOf(ViewPlanner.Result.Refused.class, ViewPlanner.plan(input(Optional.of(List.of("/dev/kmsg")),
                Optional.empty(), List.of(), List.of(), List.of(), Optional.empty(), List.of())));
        assertInstanceOf(ViewPlanner.Result.Refused.class, ViewPlanner.plan(input(Optional.empty(),
                Optional.of(List.of("/sys/kernel")), List.of(), List.of(), List.of(), Optional.empty(), List.of())));
    }

    @Test
    void aMissingGrantRefusesBeforeAnythingIsCreated() {
        ViewPlanner.Result r = ViewPlanner.plan(input(Optional.of(List.of(t.resolve("absent").toString())),
                Optional.empty(), List.of(), List.of(), List.of(), Optional.empty(), List.of()));
        assertInstanceOf(ViewPlanner.Result.Refused.class, r);
    }

    @Test
    void mountsBeneathAReadOnlyBindAreBoundReadOnlyAgain() throws Exception {
        Path r = Files.createDirectories(t.resolve("r"));
        Path sub = Files.createDirectories(r.resolve("sub"));
        ViewPlanner.Result res = ViewPlanner.plan(new ViewPlanner.Input(Optional.of(List.of(r.toString())),
                Optional.of(List.of()), List.of(), List.of(), List.of(), Optional.empty(), List.of(),
                List.of("/", sub.toRealPath().toString())));
        assertEquals(new Mount.Bind(sub.toRealPath().toString(), r + "/sub", true), byTarget(res).get(r + "/sub"));
    }
}
