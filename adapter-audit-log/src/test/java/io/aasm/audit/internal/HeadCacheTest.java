package io.aasm.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.audit.internal.ChainedFile.HeadCache;
import io.aasm.ports.audit.AuditCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The head an appender keeps is used only while the file is as that appender left it. Two instances on one
 * file stand for a cold CLI and a resident kernel (each process has its own instance and its own head); the
 * controls run the same steps with the head kept but never checked ({@link HeadCache#UNCHECKED}) and show the
 * chain forks, so the passing runs owe their result to the identity check, not to luck.
 */
class HeadCacheTest {
    @TempDir
    Path dir;

    private AuditCheck interleave(HeadCache mode) throws Exception {
        JsonlAuditLog cli = new JsonlAuditLog(dir, mode);
        JsonlAuditLog kernel = new JsonlAuditLog(dir, mode);
        for (int i = 0; i < 10; i++) {
            kernel.append(Reports.launch(i));
            kernel.append(Reports.launch(i + 1)); // the second append of a run is the one the head serves
            cli.append(Reports.launch(i + 2));
        }
        return new JsonlAuditLog(dir).verify();
    }

    @Test
    void twoAppendersInterleavingKeepOneChain() throws Exception {
        AuditCheck c = interleave(HeadCache.CHECKED);
        assertTrue(c.intact(), c.problems().toString());
        assertEquals(30, c.records());
    }

    @Test
    void controlWithoutTheIdentityCheckTheChainForks() throws Exception {
        AuditCheck c = interleave(HeadCache.UNCHECKED);
        assertFalse(c.intact(), "a head kept across another appender's record must fork the chain");
        assertTrue(c.problems().stream().anyMatch(p -> p.contains("does not follow")), c.problems().toString());
    }

    @Test
    void theBaselineThatReadsTheTailEveryTimeAlsoKeepsOneChain() throws Exception {
        AuditCheck c = interleave(HeadCache.OFF);
        assertTrue(c.intact(), c.problems().toString());
    }

    /** Removes the last record behind the appender's back (the file shrinks), then appends once more. */
    private AuditCheck appendAfterTheTailWasCut(HeadCache mode) throws Exception {
        JsonlAuditLog log = new JsonlAuditLog(dir, mode);
        for (int i = 0; i < 3; i++) {
            log.append(Reports.launch(i));
        }
        Path file = dir.resolve("audit.jsonl");
        List<String> lines = Files.readAllLines(file);
        Files.write(file, lines.subList(0, 2)); // same inode, written in place
        log.append(Reports.launch(7));
        return new JsonlAuditLog(dir).verify();
    }

    @Test
    void anEditBetweenAppendsIsNoticedAndTheNextRecordChainsToTheRealTail() throws Exception {
        AuditCheck c = appendAfterTheTailWasCut(HeadCache.CHECKED);
        assertTrue(c.intact(), c.problems().toString());
        assertEquals(3, c.records());
        String last = Files.readAllLines(dir.resolve("audit.jsonl")).get(2);
        assertTrue(last.contains("\"seq\":3"), last);
    }

    @Test
    void controlAnUncheckedHeadChainsToTheRemovedRecord() throws Exception {
        AuditCheck c = appendAfterTheTailWasCut(HeadCache.UNCHECKED);
        assertFalse(c.intact(), "the new record follows a record that is no longer there");
        assertTrue(c.problems().stream().anyMatch(p -> p.startsWith("line 3:")), c.problems().toString());
    }

    @Test
    void anInPlaceEditOfTheSameSizeIsReportedAsBefore() throws Exception {
        JsonlAuditLog log = new JsonlAuditLog(dir);
        for (int i = 0; i < 3; i++) {
            log.append(Reports.launch(i));
        }
        Path file = dir.resolve("audit.jsonl");
        List<String> lines = Files.readAllLines(file);
        String edited = lines.get(2).replace("\"status\":2", "\"status\":3");
        assertEquals(lines.get(2).length(), edited.length(), "the edit keeps the size");
        assertFalse(edited.equals(lines.get(2)), "the edit changes a byte");
        Files.write(file, List.of(lines.get(0), lines.get(1), edited));
        log.append(Reports.launch(4));
        AuditCheck c = new JsonlAuditLog(dir).verify();
        assertEquals(List.of("line 3: its content does not match its hash (edited)"), c.problems());
        assertEquals(4, c.records());
    }

    @Test
    void aTornTailLeftByAnotherAppenderIsSetAsideEvenWithAHeadKept() throws Exception {
        JsonlAuditLog kernel = new JsonlAuditLog(dir);
        kernel.append(Reports.launch(0));
        kernel.append(Reports.launch(1));
        Files.writeString(dir.resolve("audit.jsonl"), "{\"hash\":\"ab", java.nio.file.StandardOpenOption.APPEND);
        kernel.append(Reports.launch(2));
        AuditCheck c = new JsonlAuditLog(dir).verify();
        assertTrue(c.intact(), c.problems().toString());
        assertEquals(3, c.records());
        try (var aside = Files.list(dir)) {
            assertEquals(1, aside.filter(p -> p.getFileName().toString().startsWith("audit.jsonl.torn-")).count());
        }
    }
}
