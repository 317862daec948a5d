package io.aasm.cli.internal.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.ObjectClassDefinition;

/**
 * The shipped {@code conf/*.cfg} files against the real metatype of every aasm bundle: one file per aasm
 * PID, every property of the PID documented in it, and every documented line, uncommented, a valid
 * value that Configuration Admin takes. A property added to a configuration type without its line in
 * the shipped file (or a line left for a property that is gone) fails here.
 */
class ShippedConfTest {
    private static final Path SHIPPED = Path.of("src/dist/conf");
    /** {@code key = value} or {@code #key = value}: a property line (prose comments have no '=' after one word). */
    private static final Pattern PROPERTY = Pattern.compile("^#?([a-z][a-z0-9.]*)\\s*=.*$");

    @TempDir
    Path dir;
    private ConfFramework osgi;
    private Metatypes metatypes;

    @BeforeEach
    void boot() throws Exception {
        osgi = new ConfFramework(dir);
        // the bundles ConfFramework leaves out: the native and container backends (with JNA), the audit log, the mediator
        osgi.context().installBundle(ConfFramework.jar("jna-").toURI().toString());
        osgi.context().installBundle(ConfFramework.sibling("adapter-landlock-seccomp"));
        osgi.context().installBundle(ConfFramework.sibling("adapter-audit-log"));
        osgi.context().installBundle(ConfFramework.sibling("adapter-transport-proxy"));
        osgi.context().installBundle(ConfFramework.sibling("adapter-container"));
        osgi.context().installBundle(ConfFramework.sibling("adapter-macos-vhost"));
        osgi.framework.adapt(FrameworkWiring.class).resolveBundles(null);
        metatypes = new Metatypes(osgi.context(), osgi.metatype);
    }

    @AfterEach
    void stop() throws Exception {
        osgi.close();
    }

    private static List<Path> shipped() throws Exception {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(SHIPPED, "*.cfg")) {
            ds.forEach(files::add);
        }
        files.sort(null);
        return files;
    }

    private static String pid(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - ".cfg".length());
    }

    /**
     * Shipped for a backend that is not in bundle/ (the operator adds it to deploy/), so all lines commented;
     * its bundle is not on this class path, so its properties are read from its configuration type's source.
     */
    private static final Map<String, Path> OPTIONAL = Map.of(); // none since aasm-qemu-vm joined bundle/
    /** An attribute method of a configuration type: {@code int memory_mib() default 512;}. */
    private static final Pattern ATTRIBUTE = Pattern.compile("^\\s*\\S+\\s+([a-z][a-z0-9_]*)\\(\\)\\s+default\\b.*$");

    @Test
    void everyAasmPidHasAShippedFile() throws Exception {
        SortedSet<String> declared = new TreeSet<>(metatypes.pids().stream().filter(p -> p.startsWith("io.aasm.")).toList());
        declared.addAll(OPTIONAL.keySet());
        SortedSet<String> files = new TreeSet<>(shipped().stream().map(ShippedConfTest::pid).toList());
        assertEquals(declared, files);
    }

    @Test
    void theFileOfAnOptionalBackendSetsNothingAndDocumentsEveryProperty() throws Exception {
        for (Map.Entry<String, Path> optional : OPTIONAL.entrySet()) {
            SortedSet<String> keys = new TreeSet<>();
            for (String line : Files.readAllLines(SHIPPED.resolve(optional.getKey() + ".cfg"))) {
                assertTrue(line.isBlank() || line.startsWith("#"), optional.getKey() + ".cfg sets something: " + line);
                Matcher m = PROPERTY.matcher(line.strip());
                if (m.matches()) {
                    keys.add(m.group(1));
                }
            }
            SortedSet<String> declared = new TreeSet<>();
            for (String line : Files.readAllLines(optional.getValue())) {
                Matcher m = ATTRIBUTE.matcher(line);
                if (m.matches()) {
                    declared.add(m.group(1).replace('_', '.'));
                }
            }
            assertFalse(declared.isEmpty(), "no attribute read from " + optional.getValue());
            assertEquals(declared, keys, "properties of " + optional.getKey());
        }
    }

    @Test
    void everyPropertyIsDocumentedAndEveryDocumentedLineIsValid() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("home/conf"));
        for (Path file : shipped()) {
            if (OPTIONAL.containsKey(pid(file))) {
                continue; // its bundle is not on this class path: checked by theFileOfAnOptionalBackendSetsNothingAndDocumentsEveryProperty
            }
            StringBuilder uncommented = new StringBuilder();
            SortedSet<String> keys = new TreeSet<>();
            for (String line : Files.readAllLines(file)) {
                Matcher m = PROPERTY.matcher(line.strip());
                if (m.matches()) {
                    keys.add(m.group(1));
                    uncommented.append(line.strip().replaceFirst("^#", "")).append('\n');
                }
            }
            ObjectClassDefinition ocd = metatypes.definition(pid(file)).orElseThrow();
            SortedSet<String> declared = new TreeSet<>(Arrays.stream(ocd.getAttributeDefinitions(ObjectClassDefinition.ALL))
                    .map(AttributeDefinition::getID).toList());
            assertEquals(declared, keys, "properties of " + pid(file) + " vs the lines of " + file);
            Files.writeString(conf.resolve(file.getFileName()), uncommented);
        }
        List<String> log = new ArrayList<>();
        ConfFolder f = new ConfFolder(Optional.of(conf), osgi.cm, metatypes, log::add, Optional.empty());
        assertEquals(List.of(), f.get(), "every documented line, uncommented, is applied");
        for (Path file : shipped().stream().filter(p -> !OPTIONAL.containsKey(pid(p))).toList()) {
            assertNotNull(osgi.cm.listConfigurations("(service.pid=" + pid(file) + ")"), pid(file) + " applied");
        }
    }
}
