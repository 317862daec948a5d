package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Private folders ({@code filesystem.write.private}): a fresh, empty folder of the launch's own that hides the
 * host's, yet keeps the grants beneath it (a project under /tmp with a private /tmp) and never shows aasm's
 * own state that lies in the host's folder. Controls grant the same folder as a plain write grant instead.
 */
class PrivateFolderConfinementTest {
    @TempDir
    Path tmp;
    Harness h;
    Path priv;
    Path out;

    @BeforeEach
    void setUp() throws Exception {
        h = Harness.shared();
        priv = Files.createDirectories(tmp.resolve("priv"));
        Files.writeString(priv.resolve("hostfile"), "HOST-42");
        out = Files.createDirectories(tmp.resolve("out"));
    }

    private static ControlRequirement write(List<String> paths, List<String> privateDirs) {
        return req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(paths, privateDirs));
    }

    private void run(String action, Path cwd, List<String> protectedPaths, ControlRequirement... reqs) throws Exception {
        h.start(new ExecutionSpec("/bin/sh", List.of("-c", "/bin/sh -c '" + action + "; :'; :"), cwd.toString(),
                IdentityRef.anonymous(), List.of(reqs), Map.of(), CredentialPosture.none(), new Stdio.Inherit(),
                protectedPaths)).await();
    }

    @Test
    void aGrantBeneathAPrivateFolderStaysVisibleAndTheHostsFilesDoNot() throws Exception {
        Path project = Files.createDirectories(priv.resolve("project"));
        String action = "cat " + priv.resolve("hostfile") + " > seen 2>&1; echo made > made";
        run(action, project, List.of(), read(), write(List.of(project.toString()), List.of(priv.toString())));
        assertEquals("made\n", Files.readString(project.resolve("made")), "the project's write reached the host");
        assertTrue(Files.readString(project.resolve("seen")).contains("No such file"),
                "the host's file is not in the private folder: " + Files.readString(project.resolve("seen")));
        run(action, project, List.of(), read(), write(List.of(project.toString(), priv.toString()), List.of()));
        assertEquals("HOST-42", Files.readString(project.resolve("seen")), "control: a plain write grant shows it");
    }

    @Test
    void aasmsOwnStateInTheHostsFolderIsNotShownInThePrivateOne() throws Exception {
        Path state = Files.createDirectories(priv.resolve("aasm-state"));
        Files.writeString(state.resolve("probe.json"), "{}");
        String action = "ls -A " + priv + " > " + out.resolve("listing") + " 2>&1";
        run(action, out, List.of(state.toString()), read(),
                write(List.of(out.toString()), List.of(priv.toString())));
        assertEquals("", Files.readString(out.resolve("listing")), "a private folder starts empty");
        run(action, out, List.of(state.toString()), read(), write(List.of(out.toString(), priv.toString()), List.of()));
        assertEquals(List.of("aasm-state", "hostfile"), Files.readAllLines(out.resolve("listing")),
                "control: in a plain write grant the host's folder, aasm's state included (read-only), is there");
    }

    @Test
    void aWriteGrantAboveAPrivateFolderDoesNotBringTheHostsFilesBack() throws Exception {
        String action = "cat " + priv.resolve("hostfile") + " > seen 2>&1";
        run(action, out, List.of(), read(), write(List.of(tmp.toString()), List.of(priv.toString())));
        assertTrue(Files.readString(out.resolve("seen")).contains("No such file"),
                "the private folder stays private under a grant of its parent: " + Files.readString(out.resolve("seen")));
        run(action, out, List.of(), read(), write(List.of(tmp.toString()), List.of()));
        assertEquals("HOST-42", Files.readString(out.resolve("seen")), "control: without it the host's file is there");
    }
}
