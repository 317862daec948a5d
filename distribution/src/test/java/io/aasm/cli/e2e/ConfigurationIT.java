package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's conf/*.cfg reach the components (issue 19): a change takes effect, on the next cold run
 * and in a running resident kernel; a malformed file is named and changes nothing. The effect observed is
 * the security switch {@code require.verified.provenance} of the sandlock backend: with it, the (unpinned)
 * sandlock executable of this host is unavailable, so a launch pinned to sandlock is refused and its
 * grandchild never writes its marker; the control is the same launch with the file as shipped.
 */
class ConfigurationIT {
    private static final String SANDLOCK_CFG = "io.aasm.backend.sandlock.cfg";
    private static final Map<String, String> COLD = Map.of("AASM_CLIENT", "off");
    private static PrivateDist dist;
    private static Path policy;
    private static String shipped;

    @BeforeAll
    static void copy() throws Exception {
        dist = PrivateDist.copy("conf-dist");
        policy = dist.policy("writes-scratch", List.of(dist.scratch));
        shipped = Files.readString(dist.conf(SANDLOCK_CFG));
    }

    @BeforeEach
    void needsSandlock() throws Exception {
        dist.assumeSandlock();
    }

    @AfterEach
    void restore() throws Exception {
        Files.writeString(dist.conf(SANDLOCK_CFG), shipped);
    }

    /** A launch pinned to sandlock whose grandchild writes {@code marker}. */
    static Aasm.Result launch(Map<String, String> env, Path marker) throws Exception {
        return dist.run(dist.scratch, env, "run", "exec", "--isolation", "process", "--isolation-backend", "sandlock",
                "--policy", policy.toString(), "--", "/bin/sh", "-c", "/bin/sh -c 'echo ran > " + marker + "'");
    }

    static void assertRan(Aasm.Result r, Path marker) throws Exception {
        assertEquals(0, r.exit(), r.toString());
        assertEquals("ran\n", Files.readString(marker), r.toString());
    }

    static void assertRefusedForProvenance(Aasm.Result r, Path marker) {
        assertEquals(125, r.exit(), r.toString());
        assertTrue(r.err().contains("which is not a pinned digest in isolation-backends.json, and"
                + " require.verified.provenance is set"), r.toString());
        assertFalse(Files.exists(marker), "a refused launch ran its program: " + r);
    }

    @Test
    void anOperatorsChangeTakesEffectOnTheNextRun() throws Exception {
        assertRan(launch(COLD, dist.scratch.resolve("control")), dist.scratch.resolve("control"));

        Files.writeString(dist.conf(SANDLOCK_CFG), "require.verified.provenance = true\n");
        Path marker = dist.scratch.resolve("changed");
        assertRefusedForProvenance(launch(COLD, marker), marker);
        Aasm.Result backends = dist.run(dist.scratch, COLD, "backends");
        assertTrue(backends.out().contains("availability: unavailable — sandlock at "), backends.toString());
        assertEquals("", backends.err(), "a valid file is applied silently: " + backends);
    }

    @Test
    void aMalformedFileIsNamedAndTheDefaultsStay() throws Exception {
        Files.writeString(dist.conf(SANDLOCK_CFG), "require.verified.provenance = yes\n");
        Path marker = dist.scratch.resolve("malformed");
        Aasm.Result r = launch(COLD, marker);
        assertRan(r, marker);
        assertTrue(r.err().startsWith("aasm: warning: conf/" + SANDLOCK_CFG + " was not applied (the configuration"
                + " in effect is unchanged): require.verified.provenance = \"yes\": not a boolean (write true or false)\n"),
                r.toString());

        Files.writeString(dist.conf(SANDLOCK_CFG), "require.verified.provenence = true\n");
        Aasm.Result typo = dist.run(dist.scratch, COLD, "backends");
        assertEquals(0, typo.exit(), typo.toString());
        assertTrue(typo.err().contains("unknown property 'require.verified.provenence' (io.aasm.backend.sandlock has: "),
                typo.toString());
        assertFalse(typo.out().contains("require.verified.provenance is set"), typo.toString());
    }

    @Test
    void theResidentKernelAppliesAChangeAndKeepsItWhenTheNextIsMalformed() throws Exception {
        ResidentKernel kernel = ResidentKernel.prepare();
        Map<String, String> env = kernel.env();
        Aasm.Result started = dist.run(kernel.runtimeDir, env, "daemon", "start");
        assertEquals(0, started.exit(), started + "\n--- log ---\n" + kernel.log());
        try {
            assertRan(launch(env, dist.scratch.resolve("resident-control")), dist.scratch.resolve("resident-control"));

            Files.writeString(dist.conf(SANDLOCK_CFG), "require.verified.provenance = true\n");
            awaitLog(kernel, "aasm: conf/" + SANDLOCK_CFG + " applied to io.aasm.backend.sandlock");
            awaitPreview(env, true);
            Path refused = dist.scratch.resolve("resident-refused");
            assertRefusedForProvenance(launch(env, refused), refused);

            // a cold run would read this file as "defaults" and launch: only the kernel keeps the previous value
            Files.writeString(dist.conf(SANDLOCK_CFG), "require.verified.provenance = yes\n");
            awaitLog(kernel, "aasm: warning: conf/" + SANDLOCK_CFG + " was not applied (the configuration in effect is"
                    + " unchanged): require.verified.provenance = \"yes\"");
            Path kept = dist.scratch.resolve("resident-kept");
            Aasm.Result r = launch(env, kept);
            assertRefusedForProvenance(r, kept);
            assertFalse(r.err().contains("running cold"), r.toString());

            Files.delete(dist.conf(SANDLOCK_CFG));
            awaitLog(kernel, "aasm: conf/" + SANDLOCK_CFG + " removed: io.aasm.backend.sandlock is back to its defaults");
            awaitPreview(env, false);
            assertRan(launch(env, dist.scratch.resolve("resident-defaults")), dist.scratch.resolve("resident-defaults"));
        } finally {
            dist.run(kernel.runtimeDir, env, "daemon", "stop");
        }
    }

    /**
     * The kernel restarts the backend after the new configuration is in: waits (dry runs execute nothing)
     * until its preview does, or does not, name the provenance refusal.
     */
    private static void awaitPreview(Map<String, String> env, boolean refused) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            Aasm.Result r = dist.run(dist.scratch, env, "run", "exec", "--isolation", "process", "--isolation-backend",
                    "sandlock", "--policy", policy.toString(), "--dry-run", "--", "/bin/true");
            if (r.toString().contains("require.verified.provenance is set") == refused) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the kernel's preview never " + (refused ? "named" : "dropped")
                        + " the provenance refusal: " + r);
            }
            Thread.sleep(200);
        }
    }

    private static void awaitLog(ResidentKernel kernel, String line) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!kernel.log().contains(line)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the kernel never logged: " + line + "\n--- log ---\n" + kernel.log());
            }
            Thread.sleep(200);
        }
    }
}
