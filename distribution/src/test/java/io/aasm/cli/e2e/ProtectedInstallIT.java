package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * conf/ and deploy/ are aasm's own install (issue 19): what is in them is applied, loaded and run outside
 * every boundary, so no confined program may change them. Per backend: a write grant that reaches into
 * the install is refused before anything starts; a write grant around the install leaves it read-only
 * (aasm-native) or is refused (sandlock, which cannot carve a read-only hole). The acting process is a
 * grandchild; the effect checked is the kernel's conf file byte for byte and no jar in deploy/; the
 * control differs by the one grant and runs (its marker proves it).
 */
class ProtectedInstallIT {
    private static final Map<String, String> COLD = Map.of("AASM_CLIENT", "off");
    private static PrivateDist dist;
    private static byte[] kernelCfg;

    @BeforeAll
    static void copy() throws Exception {
        dist = PrivateDist.copy("protected-dist");
        kernelCfg = Files.readAllBytes(dist.conf("io.aasm.kernel.cfg"));
    }

    @BeforeEach
    void clean() throws Exception {
        Files.deleteIfExists(dist.scratch.resolve("marker"));
    }

    private static Aasm.Result attack(String backend, Path policy) throws Exception {
        if (backend.equals("sandlock")) {
            dist.assumeSandlock();
        }
        String act = "echo ran > " + dist.scratch.resolve("marker") + "; echo auto.walk=evil >> "
                + dist.conf("io.aasm.kernel.cfg") + "; echo evil > " + dist.home.resolve("deploy/evil.jar") + "; :";
        return dist.run(dist.scratch, COLD, "run", "exec", "--isolation", "process", "--isolation-backend", backend,
                "--policy", policy.toString(), "--", "/bin/sh", "-c", "/bin/sh -c '" + act + "'");
    }

    private static void assertInstallUnchanged(Aasm.Result r) throws Exception {
        assertArrayEquals(kernelCfg, Files.readAllBytes(dist.conf("io.aasm.kernel.cfg")), "conf/ changed: " + r);
        assertFalse(Files.exists(dist.home.resolve("deploy/evil.jar")), "a jar reached deploy/: " + r);
    }

    private static void assertRefusedBeforeStart(Aasm.Result r, String grant) throws Exception {
        assertEquals(125, r.exit(), r.toString());
        assertTrue(r.err().contains("write grant " + grant) && r.err().contains("aasm's own state " + dist.home),
                r.toString());
        assertFalse(Files.exists(dist.scratch.resolve("marker")), "a refused launch ran its program: " + r);
        assertInstallUnchanged(r);
    }

    @ParameterizedTest
    @ValueSource(strings = {"aasm-native", "sandlock"})
    void aWriteGrantIntoConfOrDeployIsRefused(String backend) throws Exception {
        Aasm.Result control = attack(backend, dist.policy("scratch-only", List.of(dist.scratch)));
        assertEquals(0, control.exit(), control.toString());
        assertEquals("ran\n", Files.readString(dist.scratch.resolve("marker")), control.toString());
        assertInstallUnchanged(control);

        for (String dir : List.of("conf", "deploy")) {
            clean();
            Path grant = dist.home.resolve(dir);
            assertRefusedBeforeStart(attack(backend, dist.policy("into-" + dir, List.of(dist.scratch, grant))),
                    grant.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"aasm-native", "sandlock"})
    void aWriteGrantAroundTheInstallNeverReachesIt(String backend) throws Exception {
        Path around = dist.home.getParent();
        Aasm.Result r = attack(backend, dist.policy("around", List.of(around)));
        if (backend.equals("aasm-native")) {
            // the install is mounted read-only inside the boundary: the program ran, its writes there failed
            assertEquals(0, r.exit(), r.toString());
            assertEquals("ran\n", Files.readString(dist.scratch.resolve("marker")), r.toString());
            assertTrue(r.err().contains("Read-only file system"), r.toString());
            assertInstallUnchanged(r);
        } else {
            assertRefusedBeforeStart(r, around.toString());
        }
    }
}
