package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --json} of {@code backends}, {@code probe}, {@code policy check} and {@code daemon status}: the real
 * output of the built distribution validates against the schema published in docs/schema, and the exit
 * statuses are those of the text form. Each schema check has a control: a document the schema must reject.
 */
class JsonOutputIT {

    @Test
    void backendsAndProbeValidateAndNameEveryInstalledBackend() throws Exception {
        Aasm.Result b = Aasm.run("backends", "--json");
        assertEquals(0, b.exit(), b.toString());
        assertEquals(List.of(), Schemas.violations("backends", b.out()), b.out());
        assertTrue(b.out().startsWith("{\n  \"schema\": \"aasm.backends/1\",\n"), b.out());
        for (String id : List.of("aasm-native", "sandlock")) {
            assertTrue(b.out().contains("\"id\": \"" + id + "\""), id + " missing\n" + b.out());
        }
        // control: the schema is not a formality
        assertFalse(Schemas.violations("backends", b.out().replace("\"reported\": true", "\"reported\": \"yes\"")).isEmpty());

        Aasm.Result p = Aasm.run("probe", "--backend", "aasm-native", "--json");
        assertEquals(0, p.exit(), p.toString());
        assertEquals(List.of(), Schemas.violations("probe", p.out()), p.out());
        assertTrue(p.out().contains("\"refreshed\": false") && p.out().contains("\"domain\": \"resource\""), p.out());
        Aasm.Result unknown = Aasm.run("probe", "--backend", "no-such-backend", "--json");
        assertEquals(125, unknown.exit(), "an unknown id stays a failure before start\n" + unknown);
        assertEquals("", unknown.out(), unknown.toString());
    }

    @Test
    void policyCheckValidatesValidOrNotAndKeepsItsExitStatus(@TempDir Path dir) throws Exception {
        Path good = Aasm.DIST.resolve("conf/default-policy.yaml");
        Aasm.Result ok = Aasm.run("policy", "check", "--json", good.toString());
        assertEquals(0, ok.exit(), ok.toString());
        assertEquals(List.of(), Schemas.violations("policy-check", ok.out()), ok.out());
        assertTrue(ok.out().contains("\"valid\": true") && ok.out().contains("\"kind\": \"paths\""), ok.out());

        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  read:\n    allow: [usr]\n");
        Aasm.Result invalid = Aasm.run("policy", "check", "--json", bad.toString());
        assertEquals(1, invalid.exit(), invalid.toString());
        assertEquals(List.of(), Schemas.violations("policy-check", invalid.out()), invalid.out());
        assertTrue(invalid.out().contains("\"valid\": false") && invalid.out().contains("\"line\": 5"), invalid.out());
        // control: a document that says valid without a lowering is rejected
        assertFalse(Schemas.violations("policy-check", invalid.out().replace("\"valid\": false", "\"valid\": true"))
                .isEmpty());
    }

    @Test
    void daemonStatusValidatesRunningAndNot() throws Exception {
        ResidentKernel kernel = ResidentKernel.prepare();
        Map<String, String> env = kernel.env();
        Aasm.Result down = Aasm.run(Aasm.DIST, Aasm.tempDir("json-status"), env, "daemon", "status", "--json");
        assertEquals(3, down.exit(), down.toString());
        assertEquals(List.of(), Schemas.violations("daemon-status", down.out()), down.out());
        assertTrue(down.out().contains("\"running\": false") && down.out().contains("\"pid\": null"), down.out());
        kernel.startHere(Map.of());
        try {
            Aasm.Result up = Aasm.run(Aasm.DIST, Aasm.tempDir("json-status"), env, "daemon", "status", "--json");
            assertEquals(0, up.exit(), up.toString());
            assertEquals(List.of(), Schemas.violations("daemon-status", up.out()), up.out());
            assertTrue(up.out().contains("\"running\": true") && up.out().contains("\"pid\": " + kernel.pid()), up.out());
            // control: running without a pid is not a status
            assertFalse(Schemas.violations("daemon-status", up.out().replaceAll("\"pid\": \\d+", "\"pid\": null"))
                    .isEmpty());
        } finally {
            kernel.close();
        }
    }
}
