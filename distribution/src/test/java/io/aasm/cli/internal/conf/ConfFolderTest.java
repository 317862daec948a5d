package io.aasm.cli.internal.conf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.service.cm.Configuration;

/**
 * conf/*.cfg against the real metatype of the kernel and sandlock bundles and the real Configuration
 * Admin: what is applied, typed as declared; what is refused, with every reason, leaving the
 * configuration in effect untouched. Each refusal has its control: the same file with the one bad line
 * fixed is applied.
 */
class ConfFolderTest {
    private static final String SANDLOCK = "io.aasm.backend.sandlock";

    @TempDir
    Path dir;
    private ConfFramework osgi;
    private Path conf;
    private final List<String> log = new ArrayList<>();

    @BeforeEach
    void boot() throws Exception {
        osgi = new ConfFramework(dir);
        conf = Files.createDirectories(dir.resolve("home/conf"));
    }

    @AfterEach
    void stop() throws Exception {
        osgi.close();
    }

    private ConfFolder folder() {
        return new ConfFolder(Optional.of(conf), osgi.cm, new Metatypes(osgi.context(), osgi.metatype), log::add,
                Optional.empty());
    }

    private Dictionary<String, Object> inEffect(String pid) throws Exception {
        Configuration[] found = osgi.cm.listConfigurations("(service.pid=" + pid + ")");
        return found == null ? null : found[0].getProperties();
    }

    @Test
    void aValidFileIsAppliedTypedAsTheConfigurationTypeDeclares() throws Exception {
        Files.writeString(conf.resolve(SANDLOCK + ".cfg"), "# comment\nrequire.verified.provenance = true \n"
                + "terminate.grace.millis=500\n");
        Files.writeString(conf.resolve("io.aasm.kernel.cfg"), "auto.walk = sandlock, aasm-native,,x\n");
        Files.writeString(conf.resolve("default-policy.yaml"), "not: a cfg\n");
        ConfFolder f = folder();
        assertEquals(List.of(), f.get());
        Dictionary<String, Object> s = inEffect(SANDLOCK);
        assertEquals(Boolean.TRUE, s.get("require.verified.provenance"));
        assertEquals(500L, s.get("terminate.grace.millis"));
        assertArrayEquals(new String[] {"sandlock", "aasm-native", "x"}, (String[]) inEffect("io.aasm.kernel").get("auto.walk"));
    }

    @Test
    void aBadValueIsNotAppliedAndThePreviousConfigurationStays() throws Exception {
        Path file = conf.resolve(SANDLOCK + ".cfg");
        Files.writeString(file, "require.verified.provenance = true\n");
        ConfFolder f = folder();
        Files.writeString(file, "require.verified.provenance = yes\nterminate.grace.millis = soon\n");
        f.update(file.toFile());
        assertEquals(1, log.size(), log.toString());
        String line = log.get(0);
        assertTrue(line.startsWith("warning: conf/" + SANDLOCK + ".cfg was not applied"), line);
        assertTrue(line.contains("require.verified.provenance = \"yes\": not a boolean (write true or false)"), line);
        assertTrue(line.contains("terminate.grace.millis = \"soon\": not a long integer"), line);
        assertEquals(Boolean.TRUE, inEffect(SANDLOCK).get("require.verified.provenance"), "previous configuration kept");
        assertNull(inEffect(SANDLOCK).get("terminate.grace.millis"));

        // control: the same file with valid values is applied
        Files.writeString(file, "require.verified.provenance = false\nterminate.grace.millis = 10\n");
        f.update(file.toFile());
        assertEquals("conf/" + SANDLOCK + ".cfg applied to " + SANDLOCK, log.get(1));
        assertEquals(Boolean.FALSE, inEffect(SANDLOCK).get("require.verified.provenance"));
    }

    @Test
    void atStartABadFileIsReportedAndTheDefaultsStay() throws Exception {
        Files.writeString(conf.resolve(SANDLOCK + ".cfg"), "require.verified.provenence = true\n");
        Files.writeString(conf.resolve("io.aasm.nosuch.cfg"), "a = b\n");
        Files.writeString(conf.resolve("io.aasm.kernel.cfg"), "auto.walk = \\u12\n");
        Files.writeString(conf.resolve("io.aasm.kernel.config"), "auto.walk=[\"a\"]\n");
        List<String> problems = folder().get();
        assertEquals(4, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("conf/io.aasm.backend.sandlock.cfg was not applied")
                && problems.get(0).contains("unknown property 'require.verified.provenence' (io.aasm.backend.sandlock has:"
                + " canaries, probe.cache.dir, proc.root, require.verified.provenance,"), problems.get(0));
        assertTrue(problems.get(1).contains("conf/io.aasm.kernel.cfg was not applied")
                && problems.get(1).contains("not in key = value form: Malformed \\uxxxx encoding"), problems.get(1));
        assertTrue(problems.get(2).contains("conf/io.aasm.kernel.config was not applied: aasm reads <pid>.cfg"),
                problems.get(2));
        assertTrue(problems.get(3).contains("no installed component has the configuration PID 'io.aasm.nosuch'"
                + " (configurable PIDs: io.aasm.backend.sandlock, io.aasm.kernel)"), problems.get(3));
        assertNull(inEffect(SANDLOCK));
        assertNull(inEffect("io.aasm.kernel"));
        assertTrue(log.isEmpty(), "problems at start are returned to the launcher, not logged: " + log);
    }

    @Test
    void fileInstallsFirstScanRepeatsNothingAndARemovedFileRestoresTheDefaults() throws Exception {
        Path file = conf.resolve(SANDLOCK + ".cfg");
        Files.writeString(file, "require.verified.provenance = true\n");
        Path bad = conf.resolve("io.aasm.kernel.cfg");
        Files.writeString(bad, "auto.walk.typo = a\n");
        ConfFolder f = folder();
        assertEquals(1, f.get().size());
        f.install(file.toFile());
        f.install(bad.toFile());
        assertEquals(List.of(), log, "the start already handled both files");

        Files.delete(file);
        f.uninstall(file.toFile());
        assertEquals(List.of("conf/" + SANDLOCK + ".cfg removed: " + SANDLOCK + " is back to its defaults"), log);
        assertNull(inEffect(SANDLOCK));
    }

    @Test
    void aFileWithEveryLineCommentedOutMeansTheDefaults() throws Exception {
        Path file = conf.resolve(SANDLOCK + ".cfg");
        Files.writeString(file, "# shipped like this\n#require.verified.provenance = false\n");
        ConfFolder f = folder();
        assertEquals(List.of(), f.get());
        assertNull(inEffect(SANDLOCK), "no configuration is created for a file that sets nothing");

        Files.writeString(file, "require.verified.provenance = true\n");
        f.update(file.toFile());
        Files.writeString(file, "#require.verified.provenance = true\n");
        f.update(file.toFile());
        assertEquals(List.of("conf/" + SANDLOCK + ".cfg applied to " + SANDLOCK,
                "conf/" + SANDLOCK + ".cfg sets nothing: " + SANDLOCK + " is back to its defaults"), log);
        assertNull(inEffect(SANDLOCK));
    }

    @Test
    void aCommentedFileForABackendNotInstalledIsSilentButOneThatSetsSomethingIsNamed() throws Exception {
        Path file = conf.resolve("io.aasm.backend.vm.qemu.cfg");
        Files.writeString(file, "# shipped for an optional backend\n#vcpus = 1\n");
        assertEquals(List.of(), folder().get(), "a file that sets nothing for an absent bundle changes nothing");

        Files.writeString(file, "# shipped for an optional backend\nvcpus = 1\n");
        List<String> problems = folder().get();
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("no installed component has the configuration PID 'io.aasm.backend.vm.qemu'"),
                problems.toString());
        assertNull(inEffect("io.aasm.backend.vm.qemu"));
    }

    @Test
    void aFileForABundleResolvedLaterIsAppliedWhenItResolves() throws Exception {
        Files.writeString(conf.resolve("io.aasm.backend.landlockseccomp.cfg"), "max.landlock.abi = 3\n");
        ConfFolder f = new ConfFolder(Optional.of(conf), osgi.cm, new Metatypes(osgi.context(), osgi.metatype),
                log::add, Optional.of(osgi.context()));
        try {
            assertTrue(f.get().get(0).contains("no installed component has the configuration PID 'io.aasm.backend.landlockseccomp'"),
                    f.get().toString());
            assertNull(inEffect("io.aasm.backend.landlockseccomp"));
            // what a backend dropped into deploy/ does: installed, then resolved before it starts
            osgi.context().installBundle(ConfFramework.jar("jna-").toURI().toString());
            osgi.context().installBundle(ConfFramework.sibling("adapter-landlock-seccomp"));
            osgi.framework.adapt(org.osgi.framework.wiring.FrameworkWiring.class).resolveBundles(null);
            assertEquals(List.of("conf/io.aasm.backend.landlockseccomp.cfg applied to io.aasm.backend.landlockseccomp"), log);
            assertEquals(3, inEffect("io.aasm.backend.landlockseccomp").get("max.landlock.abi"));
        } finally {
            f.deactivate();
        }
    }

    @Test
    void everyFileInConfAndConfigurationElsewhereIsClaimedFromFileInstall() throws Exception {
        ConfFolder f = folder();
        assertTrue(f.canHandle(conf.resolve("some-bundle.jar").toFile()), "a jar in conf/ must never be installed");
        Path deploy = Files.createDirectories(dir.resolve("home/deploy"));
        Path stray = deploy.resolve(SANDLOCK + ".cfg");
        Files.writeString(stray, "require.verified.provenance = false\n");
        assertTrue(f.canHandle(stray.toFile()));
        assertFalse(f.canHandle(deploy.resolve("backend.jar").toFile()));
        f.install(stray.toFile());
        assertEquals(List.of("warning: " + stray + " was not applied: configuration files belong in conf/"), log);
        assertNull(inEffect(SANDLOCK));
    }
}
