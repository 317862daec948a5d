package io.aasm.metadata.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LicenceGateTest {
    @TempDir
    Path dir;

    @Test
    void goodManifestsAndDistributionPass() throws IOException {
        GateFixture.Result r = GateFixture.run(dir, GateFixture.backends(), GateFixture.artifacts(),
                GateFixture.goodDist(dir));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("licence gate: OK (1 external backend(s), 19 third-party artifact(s), "), r.out());
    }

    @Test
    void theCommittedManifestsPassWithoutADistribution() {
        GateFixture.Result r = GateFixture.runArgs("--backends", "isolation-backends.json",
                "--artifacts", "third-party-artifacts.json");
        assertEquals(0, r.code(), r.err());
    }

    @Test
    void sandlockIsNeverBundledAndHasNoInventedDigest() throws IOException {
        ObjectNode b = (ObjectNode) GateFixture.backends().get("backends").get(0);
        assertEquals("sandlock", b.get("id").asText());
        assertEquals("0.8.6", b.get("pinnedVersion").asText());
        assertEquals("Apache-2.0", b.get("license").asText());
        assertEquals(false, b.get("modified").asBoolean());
        assertEquals(0, b.get("sha256").size(), "only full digests we actually know may be pinned");
        b.get("channels").forEach(c -> assertEquals(false, c.get("bundled").asBoolean()));
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, GateFixture.runArgs().code());
        assertEquals(2, GateFixture.runArgs("--backends").code());
        assertEquals(2, GateFixture.runArgs("--bogus", "x", "--backends", "a", "--artifacts", "b").code());
    }

    @Test
    void everyViolationIsListedNotJustTheFirst() throws IOException {
        ObjectNode b = GateFixture.backends();
        ObjectNode sl = (ObjectNode) b.get("backends").get(0);
        sl.remove("license");
        sl.put("pinnedVersion", "0.8");
        GateFixture.Result r = GateFixture.run(dir, b, GateFixture.artifacts(), null);
        assertEquals(1, r.code());
        assertTrue(r.err().contains("FAILED with 2 violation(s)"), r.err());
    }

    @Test
    void malformedJsonIsAViolationNotACrash() throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"schema\": \"aasm.isolation-backends/1\", \"schema\": \"x\"}");
        GateFixture.Result r = GateFixture.runArgs("--backends", bad.toString(),
                "--artifacts", "third-party-artifacts.json");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("cannot read as JSON"), r.err());
    }

    static ArrayNode backendsArray(ObjectNode root) {
        return (ArrayNode) root.get("backends");
    }
}
