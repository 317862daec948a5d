package io.aasm.cli.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/** Where the in-framework tests find their bundles: third-party jars and exploded sibling modules. */
final class Bundles {
    static final Path ROOT = Path.of(System.getProperty("aasm.root", "..")).toAbsolutePath().normalize();
    static final Path DIST = Path.of(System.getProperty("aasm.dist.dir",
            ROOT.resolve("distribution/target/aasm-0.1.0-SNAPSHOT").toString()));

    private Bundles() {
    }

    /** Third-party runtime bundles copied by the build (never the aasm ones, never the interactive shell). */
    static List<String> thirdParty() throws IOException {
        List<String> urls = new ArrayList<>();
        try (Stream<Path> jars = Files.list(DIST.resolve("bundle"))) {
            jars.map(p -> p.getFileName().toString()).sorted()
                    .filter(n -> n.endsWith(".jar") && n.matches(".*-\\d.*"))
                    .filter(n -> !n.startsWith("org.apache.felix.gogo.shell") && !n.startsWith("org.apache.felix.gogo.command"))
                    .forEach(n -> urls.add(DIST.resolve("bundle").resolve(n).toUri().toString()));
        }
        return urls;
    }

    /** An exploded sibling bundle (its target/classes carries the bnd-generated manifest). */
    static String exploded(String module) {
        return "reference:" + ROOT.resolve(module).resolve("target/classes").toUri();
    }

    /** Packs an exploded bundle into a jar (manifest first), as a user would drop it into deploy/. */
    static void jar(String module, Path target) throws IOException {
        Path classes = ROOT.resolve(module).resolve("target/classes");
        Manifest mf;
        try (var in = Files.newInputStream(classes.resolve("META-INF/MANIFEST.MF"))) {
            mf = new Manifest(in);
        }
        try (OutputStream os = Files.newOutputStream(target); JarOutputStream jar = new JarOutputStream(os, mf);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                String name = classes.relativize(f).toString().replace('\\', '/');
                if (Files.isDirectory(f) || name.equals("META-INF/MANIFEST.MF")) {
                    continue;
                }
                jar.putNextEntry(new ZipEntry(name));
                Files.copy(f, jar);
                jar.closeEntry();
            }
        }
    }
}
