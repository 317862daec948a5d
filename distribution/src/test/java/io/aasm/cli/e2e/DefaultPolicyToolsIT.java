package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shipped default policy runs everyday tools in a project folder (issue 20): git status, python3 -m
 * pytest, make and sh with redirections, confined on aasm-native. Each test asserts the tool's effect in the
 * project (git's index refreshed, pytest's cache, make's target, the redirected files) and, where the tool
 * writes, that a write just outside the project never lands (control: the same write inside it does).
 */
class DefaultPolicyToolsIT {
    /** A PATH without per-user shims (pyenv, ~/.local/bin): a program found outside the grants is not there. */
    private static final Map<String, String> SYSTEM_PATH = Map.of("PATH", "/usr/local/bin:/usr/bin:/bin",
            "AASM_CLIENT", "off");
    Path project;
    Path outside;

    @BeforeEach
    void project() throws Exception {
        Path root = Aasm.outsideTmp("tools");
        project = Files.createDirectories(root.resolve("project"));
        outside = Files.createDirectories(root.resolve("outside"));
    }

    private static void needs(String... programs) {
        for (String p : programs) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of(p)), "environment cannot host this check: no " + p);
        }
    }

    private Aasm.Result confined(String... argv) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Aasm.DIST.resolve("bin/aasm").toAbsolutePath().toString(), "run",
                "exec", "--isolation", "auto", "--isolation-backend", "aasm-native", "--"));
        cmd.addAll(List.of(argv));
        Aasm.Result r = Aasm.command(project, SYSTEM_PATH, cmd);
        assertTrue(r.err().contains("posture=READY backend=aasm-native"), "confined by aasm-native: " + r);
        return r;
    }

    private void host(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
    }

    @Test
    void gitStatusReadsTheRepositoryAndRefreshesItsIndex() throws Exception {
        needs("/usr/bin/git");
        host("git", "init", "-q", ".");
        Files.writeString(project.resolve("tracked.txt"), "one\n");
        host("git", "-c", "user.name=t", "-c", "user.email=t@example.org", "add", "tracked.txt");
        host("git", "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "init");
        Files.writeString(project.resolve("untracked.txt"), "two\n");
        Files.writeString(project.resolve("tracked.txt"), "one, changed\n");
        Aasm.Result r = confined("git", "status");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("modified:   tracked.txt") && r.out().contains("untracked.txt"), r.toString());
    }

    @Test
    void pytestRunsTheProjectsTestsAndKeepsItsCacheThere() throws Exception {
        needs("/usr/bin/python3");
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/pytest")),
                "environment cannot host this check: no python3-pytest");
        Files.writeString(project.resolve("test_sample.py"), "def test_sum():\n    assert 1 + 1 == 2\n\n"
                + "def test_outside():\n    import pytest\n    with pytest.raises(OSError):\n"
                + "        open('" + outside.resolve("escape.txt") + "', 'w')\n");
        Aasm.Result r = confined("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_sample.py");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("2 passed"), r.toString());
        assertFalse(Files.exists(outside.resolve("escape.txt")), "a write outside the project never lands");
        Aasm.Result cached = confined("python3", "-m", "pytest", "-q", "test_sample.py");
        assertEquals(0, cached.exit(), cached.toString());
        assertTrue(Files.isDirectory(project.resolve(".pytest_cache")), "control: pytest writes its cache in the project");
    }

    @Test
    void makeBuildsItsTargetInTheProject() throws Exception {
        needs("/usr/bin/make");
        Files.writeString(project.resolve("in.txt"), "input\n");
        Files.writeString(project.resolve("Makefile"), "out.txt: in.txt\n\tcp in.txt out.txt\n\techo built >> out.txt\n"
                + "\techo escaped > " + outside.resolve("escape.txt") + " || true\n");
        Aasm.Result r = confined("make");
        assertEquals(0, r.exit(), r.toString());
        assertEquals("input\nbuilt\n", Files.readString(project.resolve("out.txt")));
        assertFalse(Files.exists(outside.resolve("escape.txt")), "the recipe's write outside the project never lands");
    }

    @Test
    void shellRedirectionsWorkOnTheProjectAndTheStandardDevices() throws Exception {
        String script = "echo a > r1.txt; echo b >> r1.txt; cat < r1.txt > r2.txt; ls no-such-file 2>/dev/null; "
                + "echo discarded > /dev/null 2>&1; head -c 4 /dev/zero | wc -c > zero.txt; echo gone 2> err.txt > "
                + outside.resolve("escape.txt") + "; exit 0";
        Aasm.Result r = confined("sh", "-c", script);
        assertEquals(0, r.exit(), r.toString());
        assertEquals("a\nb\n", Files.readString(project.resolve("r2.txt")));
        assertEquals("4", Files.readString(project.resolve("zero.txt")).strip());
        String err = Files.readString(project.resolve("err.txt"));
        assertTrue(err.contains("nonexistent") || err.contains("No such file"), "outside the project is absent: " + err);
        assertFalse(Files.exists(outside.resolve("escape.txt")), "the redirection outside the project never lands");
    }
}
