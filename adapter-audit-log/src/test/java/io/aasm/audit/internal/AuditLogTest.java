package io.aasm.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.audit.AuditCheck;
import io.aasm.ports.audit.LaunchAudit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain holds for untouched records and breaks, with the line named, for every kind of tampering; a
 * torn tail is set aside and the chain goes on. Every check starts from an intact log (the control).
 */
class AuditLogTest {
    @TempDir
    Path dir;

    private JsonlAuditLog logWith(int records) throws Exception {
        JsonlAuditLog log = new JsonlAuditLog(dir);
        for (int i = 0; i < records; i++) {
            log.append(Reports.launch(i));
        }
        return log;
    }

    private Path file() {
        return dir.resolve("audit.jsonl");
    }

    @Test
    void recordsChainAndReadBack() throws Exception {
        JsonlAuditLog log = new JsonlAuditLog(dir);
        LaunchAudit second = Reports.launch(3);
        log.append(Reports.launch(0));
        log.append(second);
        log.append(Reports.launch(5));
        AuditCheck c = log.verify();
        assertTrue(c.intact(), c.problems().toString());
        assertEquals(3, c.records());
        assertEquals(2, log.tail(2).size());
        String shown = log.show(second.launchId()).orElseThrow();
        assertTrue(shown.contains("\"seq\":2") && shown.contains("\"status\":3"), shown);
        assertTrue(shown.contains("\"arguments_sha256\":\"" + "ab".repeat(32) + "\""), shown);
        assertFalse(shown.contains("PATH="), "no environment value");
    }

    @Test
    void anEditedRecordIsNamed() throws Exception {
        logWith(3);
        assertTrue(new JsonlAuditLog(dir).verify().intact(), "control");
        List<String> lines = Files.readAllLines(file());
        lines.set(1, lines.get(1).replace("\"status\":1", "\"status\":0"));
        Files.write(file(), lines);
        AuditCheck c = new JsonlAuditLog(dir).verify();
        assertEquals(List.of("line 2: its content does not match its hash (edited)"), c.problems());
    }

    @Test
    void aRemovedOrReorderedRecordIsNamed() throws Exception {
        logWith(4);
        List<String> lines = Files.readAllLines(file());
        List<String> removed = new ArrayList<>(lines);
        removed.remove(1);
        Files.write(file(), removed);
        AuditCheck gone = new JsonlAuditLog(dir).verify();
        assertTrue(gone.problems().stream().anyMatch(p -> p.startsWith("line 2: it does not follow")), gone.toString());
        List<String> swapped = new ArrayList<>(lines);
        swapped.set(1, lines.get(2));
        swapped.set(2, lines.get(1));
        Files.write(file(), swapped);
        AuditCheck moved = new JsonlAuditLog(dir).verify();
        assertFalse(moved.intact());
        assertTrue(moved.problems().stream().anyMatch(p -> p.startsWith("line 2:")), moved.toString());
    }

    @Test
    void aTornTailIsSetAsideAndTheChainGoesOn() throws Exception {
        logWith(2);
        Files.writeString(file(), "{\"hash\":\"12", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        AuditCheck before = new JsonlAuditLog(dir).verify();
        assertTrue(before.intact() && before.records() == 2, "a torn tail is not a record: " + before);
        new JsonlAuditLog(dir).append(Reports.launch(9));
        AuditCheck after = new JsonlAuditLog(dir).verify();
        assertTrue(after.intact(), after.problems().toString());
        assertEquals(3, after.records());
        try (var aside = Files.list(dir)) {
            assertEquals(1, aside.filter(p -> p.getFileName().toString().startsWith("audit.jsonl.torn-")).count());
        }
    }

    @Test
    void concurrentAppendsKeepOneChain() throws Exception {
        JsonlAuditLog log = new JsonlAuditLog(dir);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < 25; i++) {
                    try {
                        log.append(Reports.launch(i));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        AuditCheck c = log.verify();
        assertTrue(c.intact(), c.problems().toString());
        assertEquals(100, c.records());
    }
}
