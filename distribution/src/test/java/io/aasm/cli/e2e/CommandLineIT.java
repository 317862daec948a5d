package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One command layer, as users meet it in the built distribution: every command in {@code --help}, each
 * command's own help, unknown flags as usage errors naming the flag, {@code conformance} headless with
 * the exit status of its verdicts, the same commands in the shell.
 */
class CommandLineIT {
    static final List<String> COMMANDS = List.of("run", "backends", "probe", "policy", "version", "shell", "daemon",
            "conformance", "audit");

    @Test
    void helpListsEveryCommandIncludingDaemonAndConformance() throws Exception {
        Aasm.Result r = Aasm.run("--help");
        assertEquals(0, r.exit(), r.toString());
        for (String c : COMMANDS) {
            assertTrue(Pattern.compile("(?m)^  " + c + " ").matcher(r.out()).find(), c + " not listed\n" + r);
        }
    }

    @Test
    void everyNewOrChangedCommandHasCompleteHelp() throws Exception {
        for (List<String> cmd : List.of(List.of("daemon"), List.of("daemon", "start"), List.of("daemon", "stop"),
                List.of("daemon", "status"), List.of("daemon", "run"), List.of("conformance"), List.of("backends"),
                List.of("probe"), List.of("policy", "check"), List.of("audit"), List.of("audit", "tail"),
                List.of("audit", "show"), List.of("audit", "verify"))) {
            List<String> args = new java.util.ArrayList<>(cmd);
            args.add("--help");
            Aasm.Result r = Aasm.run(args.toArray(new String[0]));
            assertEquals(0, r.exit(), r.toString());
            assertTrue(r.out().startsWith("Usage: aasm " + String.join(" ", cmd)), r.toString());
            assertTrue(r.out().contains("Exit codes:") && r.out().contains("125"), r.toString());
        }
        assertTrue(Aasm.run("daemon", "status", "--help").out().contains("--json"));
        assertTrue(Aasm.run("conformance", "--help").out().contains("--family=NAME"));
    }

    @Test
    void unknownFlagsAreUsageErrorsNamingTheFlag() throws Exception {
        for (List<String> cmd : List.of(List.of("daemon", "status", "--bogus"), List.of("daemon", "stop", "--bogus"),
                List.of("daemon", "start", "--bogus"), List.of("daemon", "run", "--bogus"),
                List.of("conformance", "--bogus"), List.of("backends", "--bogus"), List.of("probe", "--bogus"),
                List.of("policy", "check", "--bogus", "p.yaml"), List.of("audit", "verify", "--bogus"))) {
            Aasm.Result r = Aasm.run(cmd.toArray(new String[0]));
            assertEquals(2, r.exit(), r.toString());
            assertTrue(r.err().contains("'--bogus'"), r.toString());
        }
        Aasm.Result sub = Aasm.run("daemon", "restart");
        assertEquals(2, sub.exit(), sub.toString());
        assertTrue(sub.err().contains("restart"), sub.toString());
        Aasm.Result missing = Aasm.run("daemon");
        assertEquals(2, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("missing subcommand"), missing.toString());
    }

    @Test
    void conformanceRefusesUnknownNamesBeforeRunningAnything() throws Exception {
        Aasm.Result backend = Aasm.run("conformance", "--backend", "no-such-backend");
        assertEquals(125, backend.exit(), backend.toString());
        assertTrue(backend.err().contains("no backend `no-such-backend` is installed; installed: ")
                && backend.err().contains("aasm-native") && backend.err().contains("none; nothing was run"), backend.toString());
        Aasm.Result family = Aasm.run("conformance", "--family", "nope");
        assertEquals(2, family.exit(), family.toString());
        assertTrue(family.err().contains("unknown family 'nope'; families: domains, surroundings, mediation"), family.toString());
        assertTrue(!backend.out().contains("results in") && !family.out().contains("results in"));
    }

    /** Headless, the same command as in the shell; its status is the verdict of the run's own results file. */
    @Test
    void conformanceRunsHeadlessAndExitsWithItsVerdict() throws Exception {
        Aasm.Result r = Aasm.run("conformance", "--backend", "none", "--family", "domains");
        Matcher m = Pattern.compile("results in (\\S+)").matcher(r.out());
        assertTrue(m.find(), r.toString());
        String results = Files.readString(Path.of(m.group(1), "conformance-results.json"));
        boolean passed = results.contains("\"passed\": true");
        assertTrue(passed || results.contains("\"passed\": false"), results);
        assertEquals(passed ? 0 : 1, r.exit(), r.toString());
        assertTrue(r.out().contains("none fs-read-absolute: "), "a line per cell as it goes\n" + r);
        assertTrue(r.out().contains(passed ? "\nPASS; results in " : "\nFAIL: "), r.toString());
    }

    @Test
    void theShellRunsDaemonAndConformanceThroughTheSameLayer(@TempDir Path dir) throws Exception {
        ResidentKernel rt = ResidentKernel.prepare();
        Path script = dir.resolve("commands.txt");
        Files.writeString(script, "aasm:daemon status\naasm:status\naasm:conformance --backend no-such-backend\n"
                + "aasm:status\naasm:daemon run\naasm:status\n");
        ProcessBuilder pb = new ProcessBuilder(Aasm.DIST.resolve("bin/aasm").toString(), "shell")
                .redirectInput(script.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile());
        pb.environment().put("XDG_CACHE_HOME", Aasm.CACHE.toString());
        pb.environment().put("AASM_CDS", "off");
        pb.environment().putAll(rt.env());
        Process p = pb.start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the shell did not stop at end of input");
        String out = Files.readString(dir.resolve("out"));
        assertTrue(out.contains("aasm daemon: not running (no kernel at " + rt.socket + ")"), out);
        assertTrue(out.contains("g! 3\n"), "status of daemon status\n" + out);
        assertTrue(out.contains("no backend `no-such-backend` is installed") && out.contains("g! 125\n"), out);
        assertTrue(out.contains("`daemon run` is the resident kernel itself") && out.contains("g! 2\n"), out);
    }

    @Test
    void completionAndManPagesShipAndNameEveryCommand() throws Exception {
        String bash = Files.readString(Aasm.DIST.resolve("completion/aasm.bash"));
        Path man = Aasm.DIST.resolve("man/man1");
        String top = Files.readString(man.resolve("aasm.1"));
        assertTrue(top.startsWith(".") || top.startsWith("'"), "troff, not AsciiDoc:\n" + top.substring(0, 80));
        for (String c : COMMANDS) {
            assertTrue(bash.contains(c), c + " not completed");
            assertTrue(top.contains(c), c + " not in aasm.1");
        }
        for (String page : List.of("aasm-run-exec.1", "aasm-backends.1", "aasm-probe.1", "aasm-policy-check.1",
                "aasm-daemon-status.1", "aasm-daemon-start.1", "aasm-conformance.1")) {
            assertTrue(Files.readString(man.resolve(page)).contains("EXIT CODES"), page);
        }
        for (String flag : List.of("--isolation-backend", "--report-file", "--json", "--family")) {
            assertTrue(bash.contains(flag), flag + " not completed");
        }
        // the script loads in bash and registers the completion
        Aasm.Result loaded = Aasm.command(Aasm.tempDir("completion"), Map.of(), List.of("bash", "-c",
                "source " + Aasm.DIST.resolve("completion/aasm.bash") + " && complete -p aasm"));
        assertEquals(0, loaded.exit(), loaded.toString());
        assertTrue(loaded.out().contains("aasm"), loaded.toString());
    }
}
