package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestLogTest {
    @TempDir
    Path dir;

    private static ResidentLimits logLimits(int maxBytes, int files) {
        ResidentLimits d = ResidentLimits.DEFAULTS;
        return new ResidentLimits(d.maxConnections(), d.maxLaunches(), d.launchQueue(), d.maxRequestBytes(),
                d.requestTimeoutMs(), d.maxArgs(), d.maxEnv(), d.maxStringBytes(), maxBytes, files);
    }

    @Test
    void oneLinePerEntryTheUsersAloneWithTheOutcomeFirst() throws Exception {
        RequestLog log = new RequestLog(dir.resolve("r.log"), ResidentLimits.DEFAULTS, s -> { });
        log.write(new RequestLog.Entry().outcome("refused", "max_connections").put("pid", 42).put("uid", 1000));
        log.write(new RequestLog.Entry().outcome("accepted", null).outcome("failed", "io").put("argc", 3));
        log.close();
        List<String> lines = Files.readAllLines(log.file());
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).matches("\\{\"time\":\"[^\"]+Z\",\"event\":\"refused\",\"reason\":\"max_connections\","
                + "\"pid\":42,\"uid\":1000}"), lines.get(0));
        // the first decision stands: a later failure does not rewrite it
        assertTrue(lines.get(1).contains("\"event\":\"accepted\",\"argc\":3}"), lines.get(1));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log.file())));
    }

    @Test
    void stringsAreEscapedSoALineStaysOneLineOfJson() throws Exception {
        RequestLog log = new RequestLog(dir.resolve("r.log"), ResidentLimits.DEFAULTS, s -> { });
        log.write(new RequestLog.Entry().outcome("malformed", "x\"\n\u202e\u0001\\"));
        log.close();
        List<String> lines = Files.readAllLines(log.file());
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).contains("\"reason\":\"x\\\"\\n\\u202e\\u0001\\\\\""), lines.get(0));
    }

    @Test
    void rotatesBySizeKeepingTheConfiguredNumberOfFiles() throws Exception {
        // control: under the size, one file
        RequestLog log = new RequestLog(dir.resolve("r.log"), logLimits(400, 3), s -> { });
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            log.write(new RequestLog.Entry().outcome("accepted", null).put("n", i));
            written.add("\"n\":" + i + "}");
        }
        log.close();
        assertTrue(Files.exists(log.rotated(1)) && Files.exists(log.rotated(2)));
        assertFalse(Files.exists(log.rotated(3)), "kept more files than log.files=3");
        List<String> kept = new ArrayList<>();
        for (int i = 2; i >= 0; i--) {
            assertTrue(Files.size(log.rotated(i)) <= 400, "file " + i + " grew past log.max.bytes");
            kept.addAll(Files.readAllLines(log.rotated(i)));
        }
        // the newest lines, in order, none lost inside the kept files
        List<String> tail = written.subList(written.size() - kept.size(), written.size());
        for (int i = 0; i < kept.size(); i++) {
            assertTrue(kept.get(i).endsWith(tail.get(i)), kept.get(i) + " vs " + tail.get(i));
        }
    }

    @Test
    void anUnwritableLogIsSaidOnceAndFailsNothing() {
        List<String> said = new ArrayList<>();
        RequestLog log = new RequestLog(dir.resolve("missing/r.log"), ResidentLimits.DEFAULTS, said::add);
        log.write(new RequestLog.Entry().outcome("accepted", null));
        log.write(new RequestLog.Entry().outcome("accepted", null));
        assertEquals(1, said.size(), said.toString());
    }
}
