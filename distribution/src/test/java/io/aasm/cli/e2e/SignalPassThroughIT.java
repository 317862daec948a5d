package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A signal sent to aasm reaches the program as the signal that was sent: the program traps INT, HUP and
 * TERM, records which one fired and exits with its own code for it. Every signal is checked without a
 * boundary, inside aasm-native's boundary cold, and through the resident kernel; TERM is the control that
 * was forwarded before (as the graceful end), INT and HUP used to arrive as TERM.
 */
class SignalPassThroughIT {
    static ResidentKernel kernel;

    @BeforeAll
    static void startKernel() throws Exception {
        kernel = ResidentKernel.start(Map.of());
    }

    @AfterAll
    static void stopKernel() throws Exception {
        kernel.close();
    }

    private static final String PROGRAM = "trap 'echo INT > got; exit 5' INT; trap 'echo HUP > got; exit 6' HUP; "
            + "trap 'echo TERM > got; exit 7' TERM; : > ready; while :; do sleep 0.1; done";

    @Test
    void eachSignalArrivesAsItself() throws Exception {
        for (List<String> isolation : List.of(List.of("--isolation", "none"),
                List.of("--isolation", "auto", "--isolation-backend", "aasm-native"))) {
            for (Map<String, String> env : List.of(Map.of("AASM_CLIENT", "off"), kernel.env())) {
                for (String[] sig : new String[][] {{"INT", "5"}, {"HUP", "6"}, {"TERM", "7"}}) {
                    String where = isolation + (env.isEmpty() || env.containsKey("AASM_CLIENT") ? " cold" : " resident")
                            + " SIG" + sig[0];
                    Path dir = Aasm.outsideTmp("signal");
                    List<String> args = new ArrayList<>(List.of("run", "exec"));
                    args.addAll(isolation);
                    args.addAll(List.of("--", "/bin/sh", "-c", PROGRAM));
                    Process p = Aasm.start(Aasm.DIST, dir, env, args.toArray(new String[0]));
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                    while (!Files.exists(dir.resolve("ready")) && p.isAlive() && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                    assertTrue(Files.exists(dir.resolve("ready")), where + ": the program never started: "
                            + (p.isAlive() ? "" : Aasm.result(p, dir)));
                    new ProcessBuilder("kill", "-" + sig[0], Long.toString(p.pid())).inheritIO().start().waitFor();
                    assertTrue(p.waitFor(60, TimeUnit.SECONDS), where + ": aasm did not end");
                    Aasm.Result r = Aasm.result(p, dir);
                    assertEquals(sig[0], Files.readString(dir.resolve("got")).strip(), where + " " + r);
                    assertEquals(Integer.parseInt(sig[1]), r.exit(), where + " " + r);
                }
            }
        }
    }
}
