package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end: the built distribution's bin/aasm, as a user runs it; every assertion is an observed effect. */
class CliEndToEndIT {

    @Test
    void theProgramsOwnExitStatusIsAasmsExitStatus() throws Exception {
        Aasm.Result r = Aasm.run("run", "exec", "--isolation", "none", "--", "sh", "-c", "echo out; echo err >&2; exit 7");
        assertEquals(7, r.exit(), r.toString());
        assertTrue(r.out().startsWith("out\n"), r.toString());
        assertTrue(r.err().contains("err\n"), r.toString());
        assertTrue(r.err().contains("aasm: posture=NO_BOUNDARY backend=none prevention=0/9 exit=7"), r.toString());
    }

    @Test
    void isolationNoneReallyRunsTheProgramAndReportsNoBoundary(@TempDir Path dir) throws Exception {
        Path created = dir.resolve("created");
        Path report = dir.resolve("report.txt");
        Aasm.Result r = Aasm.run("run", "exec", "--isolation", "none", "--report-file", report.toString(), "--",
                "sh", "-c", "sh -c 'echo made > " + created + "'");
        assertEquals(0, r.exit(), r.toString());
        assertEquals("made", Files.readString(created).strip());
        String text = Files.readString(report);
        assertTrue(text.contains("NO BOUNDARY ESTABLISHED"), text);
        assertTrue(text.contains("post_run"), text);
    }

    @Test
    void reportFileTakesTheChosenFormat(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report.json");
        Aasm.Result r = Aasm.run("run", "exec", "--isolation", "none", "--report", "json", "--report-file",
                report.toString(), "--", "/bin/true");
        assertEquals(0, r.exit(), r.toString());
        String json = Files.readString(report);
        assertTrue(json.strip().startsWith("{") && json.contains("aasm.isolation.report/1"), json);
    }

    /**
     * The --report choices are the renderer bundles installed: a copy of the distribution without
     * adapter-report-json no longer offers kv and json (and runs nothing when asked for them; its dry-run
     * preview says in place that the kv section has no renderer); the same
     * copy with that bundle dropped into deploy/ offers and renders json again (the control).
     */
    @Test
    void reportChoicesAreTheInstalledRendererBundles(@TempDir Path dir) throws Exception {
        Path created = dir.resolve("created");
        Path report = dir.resolve("report.json");
        String[] exec = {"run", "exec", "--isolation", "none", "--report", "json", "--report-file", report.toString(),
            "--", "sh", "-c", "touch " + created};
        Aasm.Result help = Aasm.run("run", "exec", "--help");
        assertTrue(oneLine(help.out()).contains("installed here: json, kv, text (default: text)"), help.toString());
        Aasm.Result unknown = Aasm.run("run", "exec", "--isolation", "none", "--report", "yaml", "--report-file",
                report.toString(), "--", "sh", "-c", "touch " + created);
        assertEquals(2, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().contains("'yaml' is not an installed report format; installed: json, kv, text"),
                unknown.toString());
        assertFalse(Files.exists(created) || Files.exists(report), "an unknown format ran the program");

        Path home = Aasm.copyOfDistribution(List.of("adapter-report-json.jar"));
        Aasm.Result fewer = Aasm.run(home, dir, Map.of(), "run", "exec", "--help");
        assertTrue(oneLine(fewer.out()).contains("installed here: text (default: text)"), fewer.toString());
        Aasm.Result gone = Aasm.run(home, dir, Map.of(), exec);
        assertEquals(2, gone.exit(), gone.toString());
        assertTrue(gone.err().contains("'json' is not an installed report format; installed: text"), gone.toString());
        assertFalse(Files.exists(created) || Files.exists(report), "a removed format ran the program");
        // the dry-run preview needs no report file, so it previews without kv (which that bundle holds)
        Aasm.Result preview = Aasm.run(home, dir, Map.of(), "run", "exec", "--isolation", "none", "--dry-run", "--",
                "sh", "-c", "touch " + created);
        assertEquals(0, preview.exit(), preview.toString());
        assertTrue(preview.out().contains("--- execution isolation (machine-readable) ---\nnot shown: no `kv` report"
                + " renderer is installed (installed: text)\n--- launch command ---"), preview.toString());
        assertTrue(preview.out().contains("--- execution isolation ---\nschema: aasm.isolation.report/1\n")
                && !preview.out().contains("schema=aasm.isolation.report/1")
                && preview.out().contains("--- protection ---"), preview.toString());
        assertFalse(Files.exists(created), "a dry run executed the program");

        Files.copy(Aasm.DIST.resolve("bundle/adapter-report-json.jar"), home.resolve("deploy/adapter-report-json.jar"));
        Aasm.Result back = Aasm.run(home, dir, Map.of(), exec);
        assertEquals(0, back.exit(), back.toString());
        assertTrue(Files.exists(created), back.toString());
        assertTrue(Files.readString(report).contains("\"schema\": \"aasm.isolation.report/1\""), back.toString());
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s+", " ");
    }

    @Test
    void anUnknownFlagIsAUsageError() throws Exception {
        Aasm.Result r = Aasm.run("run", "exec", "--no-such-flag", "--", "/bin/true");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--no-such-flag"), r.toString());
        Aasm.Result bad = Aasm.run("run", "exec", "--isolation", "sometimes", "--", "/bin/true");
        assertEquals(2, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("use none, auto, process, container or vm"), bad.toString());
    }

    @Test
    void aMissingProgramIs127AndANonExecutableOneIs126(@TempDir Path dir) throws Exception {
        Aasm.Result missing = Aasm.run("run", "exec", "--isolation", "none", "--", "no-such-program-aasm-e2e");
        assertEquals(127, missing.exit(), missing.toString());
        Aasm.Result missingPath = Aasm.run("run", "exec", "--isolation", "none", "--", dir.resolve("absent").toString());
        assertEquals(127, missingPath.exit(), missingPath.toString());
        Path script = dir.resolve("not-executable.sh");
        Files.writeString(script, "#!/bin/sh\ntouch " + dir.resolve("ran") + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        Aasm.Result notExec = Aasm.run("run", "exec", "--isolation", "none", "--", script.toString());
        assertEquals(126, notExec.exit(), notExec.toString());
        assertFalse(Files.exists(dir.resolve("ran")));
    }

    /**
     * A confined launch whose program does not exist never ran: its posture line must not read READY
     * (scripts count READY lines as confined runs). Control: the same launch of a program that exists is
     * READY.
     */
    @Test
    void aConfinedProgramThatNeverStartedIsNotReady(@TempDir Path dir) throws Exception {
        Aasm.Result missing = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "process",
                "--isolation-backend", "aasm-native", "--", dir.resolve("absent").toString());
        assertEquals(127, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("aasm: posture=NOT_STARTED backend=aasm-native"), missing.toString());
        Aasm.Result present = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "process",
                "--isolation-backend", "aasm-native", "--", "/bin/true");
        assertEquals(0, present.exit(), present.toString());
        assertTrue(present.err().contains("aasm: posture=READY backend=aasm-native"), present.toString());
    }

    @Test
    void dryRunPrintsTheSectionsAndExecutesNothing(@TempDir Path dir) throws Exception {
        Path created = dir.resolve("created");
        Aasm.Result r = Aasm.run("run", "exec", "--isolation", "none", "--dry-run", "--no-proxy", "--",
                "sh", "-c", "touch " + created);
        assertEquals(0, r.exit(), r.toString());
        String out = r.out();
        int protection = out.indexOf("--- protection ---");
        int isolation = out.indexOf("--- execution isolation ---");
        int kv = out.indexOf("--- execution isolation (machine-readable) ---");
        assertTrue(protection >= 0 && isolation > protection && kv > isolation, out);
        assertTrue(out.substring(kv).contains("\nschema=aasm.isolation.report/1\n"), out);
        assertTrue(out.contains("posture=no_boundary"), out);
        assertTrue(out.contains("no_proxy_flag: given"), out);
        assertFalse(Files.exists(created), "a dry run executed the program");
    }

    @Test
    void nothingIsLaunchedOnABadPolicy(@TempDir Path dir) throws Exception {
        Path policy = dir.resolve("bad.yaml");
        Files.writeString(policy, "apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  read:\n    allow: [usr]\n");
        Path created = dir.resolve("created");
        Aasm.Result r = Aasm.run("run", "exec", "--isolation", "none", "--policy", policy.toString(), "--",
                "sh", "-c", "touch " + created);
        assertEquals(125, r.exit(), r.toString());
        assertTrue(r.err().contains(policy + ":5:"), "file:line:col expected\n" + r);
        assertFalse(Files.exists(created), "the program ran despite a rejected policy");
    }

    @Test
    void autoWithNoCapableBackendRefusesAndNamesEveryCandidate(@TempDir Path dir) throws Exception {
        // A distribution without the real backends, plus the example backend dropped into deploy/.
        Path home = Aasm.copyOfDistribution(List.of("adapter-landlock-seccomp.jar", "adapter-sandlock.jar",
                "adapter-container.jar", "adapter-macos-vhost.jar"));
        Files.copy(home.resolve("examples/adapter-example-unconfined.jar"), home.resolve("deploy/example.jar"));
        Path created = dir.resolve("created");
        Aasm.Result r = Aasm.run(home, dir, Map.of(), "run", "exec", "--isolation", "auto", "--",
                "sh", "-c", "touch " + created);
        assertEquals(125, r.exit(), r.toString());
        for (String candidate : List.of("sandlock", "aasm-native", "aasm-macos-vm", "example-unconfined")) {
            assertTrue(r.err().contains("- " + candidate + ":"), candidate + " not named\n" + r);
        }
        assertFalse(Files.exists(created), "a refused launch ran the program");
        Aasm.Result backends = Aasm.run(home, dir, Map.of(), "backends");
        assertTrue(backends.out().contains("backend: example-unconfined"), backends.toString());
        assertTrue(backends.out().contains("unsupported"), backends.toString());
    }

    /**
     * The program traps TERM and exits 3. It waits in a loop of short foreground sleeps rather than
     * {@code sleep 30 & wait}: the kernel's graceful termination signals descendants before the
     * program itself, and a bare {@code wait} then returns 0 before the program sees its own TERM
     * (measured: about one run in four), which would test that ordering rather than forwarding.
     */
    @Test
    void sigtermIsForwardedToTheProgram(@TempDir Path dir) throws Exception {
        Path marker = dir.resolve("got");
        Path ready = dir.resolve("ready");
        Process p = Aasm.start(Aasm.DIST, dir, Map.of("F", marker.toString()), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", "trap 'echo got > \"$F\"; exit 3' TERM; : > " + ready + "; while :; do sleep 0.1; done");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(ready) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(ready), "the program never started");
        new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).inheritIO().start().waitFor();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "aasm did not end after SIGTERM");
        Aasm.Result r = Aasm.result(p, dir);
        assertEquals(3, r.exit(), r.toString());
        assertEquals("got", Files.readString(marker).strip());
        assertTrue(r.err().contains("exit=3"), r.toString());
    }

    @Test
    void aSignalledProgramExitsWith128PlusN(@TempDir Path dir) throws Exception {
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", "kill -KILL $$");
        assertEquals(137, r.exit(), r.toString());
    }

    @Test
    void helpShowsTheExitCodeTableOnEveryCommand() throws Exception {
        for (List<String> cmd : List.of(List.of("--help"), List.of("run", "exec", "--help"), List.of("backends", "--help"),
                List.of("policy", "check", "--help"))) {
            Aasm.Result r = Aasm.run(cmd.toArray(new String[0]));
            assertEquals(0, r.exit(), r.toString());
            assertTrue(r.out().contains("Exit codes:") && r.out().contains("125"), r.toString());
        }
    }

    @Test
    void theShellOffersTheSameCommandsUnderTheAasmScope(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("commands.txt");
        Files.writeString(script, "aasm:version\naasm:run exec --isolation none -- /bin/echo from-shell\naasm:status\n"
                + "aasm:run exec --bogus -- /bin/true\naasm:status\n");
        ProcessBuilder pb = new ProcessBuilder(Aasm.DIST.resolve("bin/aasm").toString(), "shell")
                .redirectInput(script.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile());
        pb.environment().put("XDG_CACHE_HOME", Aasm.CACHE.toString());
        pb.environment().put("AASM_CDS", "off");
        Process p = pb.start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the shell did not stop at end of input");
        String out = Files.readString(dir.resolve("out"));
        assertTrue(out.contains("g! aasm 0."), out);
        assertTrue(out.contains("from-shell"), out);
        assertTrue(out.contains("g! 0\n"), "status of the run\n" + out);
        assertTrue(out.contains("g! 2\n"), "status of the usage error\n" + out);
    }

    /** The second run finds the shared bundle cache locked and must fall back to a private one. */
    @Test
    void concurrentRunsShareNothingButSucceed(@TempDir Path dir) throws Exception {
        Path first = Files.createDirectories(dir.resolve("first"));
        Path second = Files.createDirectories(dir.resolve("second"));
        Path started = dir.resolve("started");
        Process slow = Aasm.start(Aasm.DIST, first, Map.of(), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", ": > " + started + "; sleep 3; exit 4");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(started) && slow.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(started), "the first run never started its program");
        Aasm.Result quick = Aasm.run(Aasm.DIST, second, Map.of(), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", "exit 5");
        assertEquals(5, quick.exit(), quick.toString());
        assertTrue(slow.waitFor(120, TimeUnit.SECONDS));
        assertEquals(4, Aasm.result(slow, first).exit());
    }

    /** Off macOS a launch pinned to aasm-macos-vm is refused with its reason and nothing runs (no guest either). */
    @Test
    void aLaunchPinnedToTheMacosVmIsRefusedOffMacos(@TempDir Path dir) throws Exception {
        Path created = dir.resolve("created");
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "vm", "--isolation-backend",
                "aasm-macos-vm", "--", "/usr/bin/touch", created.toString());
        assertEquals(125, r.exit(), r.toString());
        assertTrue(r.err().contains("[not_macos]") && r.err().contains("[backend_unavailable]"), r.toString());
        assertFalse(Files.exists(created), "a refused launch ran the program");
        // control: the same launch without a boundary runs it
        Aasm.Result c = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "none", "--",
                "/usr/bin/touch", created.toString());
        assertEquals(0, c.exit(), c.toString());
        assertTrue(Files.exists(created), c.toString());
    }

    @Test
    void versionAndBackendsWork() throws Exception {
        Aasm.Result v = Aasm.run("version");
        assertEquals(0, v.exit(), v.toString());
        assertTrue(v.out().startsWith("aasm 0."), v.toString());
        // a cache of its own: other tests here launch guests on the shared cache, and its templates would say nothing
        Path listingCache = Aasm.outsideTmp("listing-cache");
        Aasm.Result b = Aasm.run(Aasm.DIST, Aasm.tempDir("aasm-e2e-cwd"), Map.of("XDG_CACHE_HOME",
                listingCache.toString()), "backends");
        assertEquals(0, b.exit(), b.toString());
        assertTrue(b.out().contains("auto walk order: sandlock, aasm-native, aasm-container, aasm-qemu-vm,"
                + " aasm-macos-vm"), b.toString());
        // the VM backend ships in bundle/ and is listed, but a listing never measures it: no guest, no template
        assertTrue(b.out().contains("backend: aasm-qemu-vm"), b.toString());
        assertTrue(Files.isDirectory(listingCache.resolve("aasm")), "the listing used its own cache: " + b);
        assertFalse(Files.exists(listingCache.resolve("aasm/vm/templates")), "a listing booted a guest");
        // its macOS sibling is installed from the same bundle and, off macOS, listed unavailable with the reason
        assertTrue(b.out().contains("backend: aasm-macos-vm"), b.toString());
        String mac = b.out().substring(b.out().indexOf("backend: aasm-macos-vm"));
        mac = mac.substring(0, mac.indexOf("platform_boundary:"));
        assertTrue(mac.contains("availability: unavailable — aasm-macos-vm runs guests with Apple's"
                + " Virtualization.framework, which exists only on macOS") && mac.contains("[not_macos]"), b.toString());
    }
}
