package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aasm audit tail|show|verify} on the log real launches wrote (issue 17): the posture line names the
 * record, {@code show} finds it, {@code verify} says intact; one edited byte makes {@code verify} fail
 * with the line named (the intact run before the edit is the control).
 */
class AuditIT {
    private static final Pattern AUDIT_ID = Pattern.compile(" audit=([0-9a-f-]{36})");

    @Test
    void launchesAreRecordedShownAndAnEditIsDetected(@TempDir Path dir) throws Exception {
        Path state = Files.createDirectories(dir.resolve("state"));
        Map<String, String> env = Map.of("XDG_STATE_HOME", state.toString(), "AASM_CLIENT", "off");
        String first = launchId(Aasm.run(Aasm.DIST, dir, env, "run", "exec", "--isolation", "process",
                "--isolation-backend", "aasm-native", "--", "/bin/sh", "-c", "exit 3"), 3);
        String second = launchId(Aasm.run(Aasm.DIST, dir, env, "run", "exec", "--isolation", "none", "--",
                "/bin/true"), 0);

        Aasm.Result tail = Aasm.run(Aasm.DIST, dir, env, "audit", "tail", "-n", "2");
        assertEquals(0, tail.exit(), tail.toString());
        List<String> lines = tail.out().lines().toList();
        assertEquals(2, lines.size(), tail.toString());
        assertTrue(lines.get(0).contains(first) && lines.get(1).contains(second), tail.toString());

        Aasm.Result show = Aasm.run(Aasm.DIST, dir, env, "audit", "show", first);
        assertEquals(0, show.exit(), show.toString());
        assertTrue(show.out().contains("\"launch\":\"" + first + "\"") && show.out().contains("aasm-native"),
                show.toString());
        Aasm.Result absent = Aasm.run(Aasm.DIST, dir, env, "audit", "show", "no-such-launch");
        assertEquals(1, absent.exit(), absent.toString());
        assertTrue(absent.err().contains("no record of launch no-such-launch"), absent.toString());

        Aasm.Result intact = Aasm.run(Aasm.DIST, dir, env, "audit", "verify");
        assertEquals(0, intact.exit(), intact.toString());
        assertTrue(intact.out().contains("audit log intact: 2 record(s)"), intact.toString());

        // the first record's exit status 3 becomes 4: one byte, the chain must notice
        Path log = state.resolve("aasm/audit/audit.jsonl");
        String text = Files.readString(log, StandardCharsets.UTF_8);
        String firstLine = text.lines().findFirst().orElseThrow();
        assertTrue(firstLine.contains("\"status\":3"), firstLine);
        Files.writeString(log, text.replaceFirst("\"status\":3", "\"status\":4"), StandardCharsets.UTF_8);
        Aasm.Result edited = Aasm.run(Aasm.DIST, dir, env, "audit", "verify");
        assertEquals(74, edited.exit(), edited.toString());
        assertTrue(edited.out().contains("line 1: its content does not match its hash (edited)"), edited.toString());
    }

    private static String launchId(Aasm.Result r, int status) {
        assertEquals(status, r.exit(), r.toString());
        Matcher m = AUDIT_ID.matcher(r.err());
        assertTrue(m.find(), "the posture line names the audit record\n" + r);
        return m.group(1);
    }
}
