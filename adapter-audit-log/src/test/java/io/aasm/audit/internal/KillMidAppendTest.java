package io.aasm.audit.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.audit.AuditCheck;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer killed with SIGKILL at random moments loses no record it acknowledged, and the log verifies:
 * a separate JVM appends in a loop and prints each sequence number once append() returned.
 */
class KillMidAppendTest {
    @TempDir
    Path dir;

    /** The writer: appends until killed, printing the record count after each acknowledged append. */
    public static void main(String[] args) throws Exception {
        JsonlAuditLog log = new JsonlAuditLog(Path.of(args[0]));
        for (int i = 0; ; i++) {
            log.append(Reports.launch(i));
            System.out.println("acked");
            System.out.flush();
        }
    }

    @Test
    void killsAtRandomLoseNoAcknowledgedRecord() throws Exception {
        int acknowledged = 0;
        for (int round = 0; round < 6; round++) {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    System.getProperty("java.class.path"), KillMidAppendTest.class.getName(), dir.toString())
                    .redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
            long stopAt = System.nanoTime() + (300 + ThreadLocalRandom.current().nextInt(700)) * 1_000_000L;
            int seen = 0;
            while (System.nanoTime() < stopAt) {
                if (out.ready() && "acked".equals(out.readLine())) {
                    seen++;
                }
            }
            p.destroyForcibly().waitFor();
            while (out.ready()) {
                if ("acked".equals(out.readLine())) {
                    seen++;
                }
            }
            acknowledged += seen;
            AuditCheck c = new JsonlAuditLog(dir).verify();
            assertTrue(c.intact(), "round " + round + ": " + c.problems());
            assertTrue(c.records() >= acknowledged, "round " + round + ": " + c.records() + " records, "
                    + acknowledged + " acknowledged");
        }
    }
}
