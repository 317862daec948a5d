package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The resident kernel activates the process walk's backends after it listens (a dry run each, in the background),
 * so the first confined call activates none. Observed through the kernel's own stage trace of that call
 * ({@code -Daasm.stages.file}: a backend's activation is a stage of the call that pays for it). Control: the
 * same kernel with {@code -Daasm.resident.warmup=false}, whose first call activates them itself. No time is
 * asserted (benchmarks measure it: distribution/bench/first-call.sh).
 */
class ResidentWarmupIT {

    private static List<String> firstLaunchTrace(boolean warmup) throws Exception {
        Path work = Aasm.tempDir("aasm-warmup-it");
        Path stages = work.resolve("stages.jsonl");
        Path state = Files.createDirectories(Aasm.outsideTmp("aasm-warmup-state"));
        Path audit = state.resolve("aasm/audit/audit.jsonl");
        ResidentKernel kernel = ResidentKernel.start(Map.of("AASM_JAVA_OPTS",
                "-Daasm.stages.file=" + stages + " -Daasm.resident.warmup=" + warmup, "XDG_STATE_HOME",
                state.toString()));
        try {
            if (warmup) {
                String log = awaitWarmup(kernel);
                assertTrue(log.indexOf("listening on") < log.indexOf("warmed up in"),
                        "readiness first, then the warm-up:\n" + log);
                assertTrue(log.contains("aasm-native: status 0, selected"), log);
                // dry runs launch nothing, so they leave no audit record
                assertEquals(0, records(audit), "audit records after the warm-up");
            }
            Map<String, String> env = new java.util.HashMap<>(kernel.env());
            env.put("AASM_CLIENT", "on");
            Aasm.Result r = Aasm.run(Aasm.DIST, work, env, "run", "exec", "--isolation", "process", "--", "/bin/true");
            assertEquals(0, r.exit(), r.toString());
            assertFalse(r.err().contains("running cold"), r.toString());
            assertEquals(1, records(audit), "the first call's record, and only it");
            if (!warmup) {
                assertFalse(kernel.log().contains("warmed up"), kernel.log());
            }
            // the run's trace (it reached a decision) is appended after its status was sent: wait for that line
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline) {
                List<String> launches = Files.exists(stages) ? Files.readAllLines(stages).stream()
                        .filter(l -> l.contains("\"decided\"")).toList() : List.of();
                if (!launches.isEmpty()) {
                    assertEquals(1, launches.size(), launches.toString());
                    return launches;
                }
                Thread.sleep(50);
            }
            throw new AssertionError("no trace of the launch in " + stages + "\n--- log ---\n" + kernel.log());
        } finally {
            kernel.close();
        }
    }

    private static long records(Path audit) throws java.io.IOException {
        return Files.exists(audit) ? Files.readAllLines(audit).stream().filter(l -> !l.isBlank()).count() : 0;
    }

    private static String awaitWarmup(ResidentKernel kernel) throws Exception {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (System.nanoTime() < deadline) {
            String log = kernel.log();
            if (log.contains("warmed up in") || log.contains("warm-up failed")) {
                return log;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the kernel never reported its warm-up:\n" + kernel.log());
    }

    @Test
    void theFirstConfinedCallActivatesNoBackendAfterTheWarmup() throws Exception {
        String trace = firstLaunchTrace(true).get(0);
        assertFalse(trace.contains("activate_backend"), trace);
    }

    @Test
    void withoutTheWarmupTheFirstConfinedCallActivatesItsBackend() throws Exception {
        String trace = firstLaunchTrace(false).get(0);
        assertTrue(trace.contains("\"activate_backend\""), trace);
    }
}
