package io.aasm.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.audit.internal.ChainedFile.HeadCache;
import io.aasm.ports.audit.AuditCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cold CLI and the resident kernel are two JVMs, each with its own kept head, serialised only by the file
 * lock: a second JVM appends while this one does, and the log stays one chain holding every record. The
 * control runs the same two processes with the head kept but unchecked, and the chain forks; the
 * deterministic one-JVM version is {@link HeadCacheTest#controlWithoutTheIdentityCheckTheChainForks}.
 */
class TwoProcessAppendTest {
    private static final int EACH = 300;
    private static final int OTHER = 200; // the other process's records carry exit statuses 200-249, ours 0-99
    private static final Pattern OTHER_STATUS = Pattern.compile("\"status\":2\\d\\d[,}]");

    @TempDir
    Path dir;

    /** The other process: appends {@code args[1]} records to the log in {@code args[0]}, head mode {@code args[2]}. */
    public static void main(String[] args) throws Exception {
        JsonlAuditLog log = new JsonlAuditLog(Path.of(args[0]), HeadCache.valueOf(args[2]));
        for (int i = 0; i < Integer.parseInt(args[1]); i++) {
            log.append(Reports.launch(OTHER + i % 50));
        }
    }

    /** Both processes append EACH records at once with the given head mode; returns the log's check. */
    private AuditCheck appendFromTwoProcesses(HeadCache mode) throws Exception {
        JsonlAuditLog here = new JsonlAuditLog(dir, mode);
        here.append(Reports.launch(0)); // the log exists and this JVM holds a head before the other starts
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), TwoProcessAppendTest.class.getName(), dir.toString(),
                String.valueOf(EACH), mode.name()).inheritIO().start();
        Path file = dir.resolve("audit.jsonl");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (Files.readAllLines(file).size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5); // start appending only once the other process does
        }
        for (int i = 1; i < EACH; i++) {
            here.append(Reports.launch(i % 100));
        }
        assertTrue(other.waitFor(120, TimeUnit.SECONDS), "the other appender finished");
        assertEquals(0, other.exitValue());
        int switches = 0;
        boolean wasOther = false;
        for (String line : Files.readAllLines(file)) {
            boolean isOther = OTHER_STATUS.matcher(line).find();
            switches += isOther != wasOther ? 1 : 0;
            wasOther = isOther;
        }
        // Without interleaving each head would only ever be stale once and the check would prove little.
        System.out.println(mode + ": appends switched process " + switches + " times");
        assertTrue(switches >= 4, "the two processes' appends interleaved (" + switches + " switches)");
        return new JsonlAuditLog(dir).verify();
    }

    @Test
    void twoProcessesAppendingAtOnceKeepOneChain() throws Exception {
        AuditCheck c = appendFromTwoProcesses(HeadCache.CHECKED);
        assertTrue(c.intact(), c.problems().toString());
        assertEquals(2 * EACH, c.records());
    }

    @Test
    void controlTwoProcessesWithUncheckedHeadsForkTheChain() throws Exception {
        AuditCheck c = appendFromTwoProcesses(HeadCache.UNCHECKED);
        assertFalse(c.intact(), "heads kept across the other process's records must fork the chain");
    }
}
