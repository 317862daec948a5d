package io.aasm.metadata.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** Builds the good manifests (the real files of this module), distribution trees, and runs the gate. */
final class GateFixture {
    static final ObjectMapper MAPPER = new ObjectMapper();

    record Result(int code, String out, String err) {
    }

    static ObjectNode backends() throws IOException {
        return (ObjectNode) MAPPER.readTree(Path.of("isolation-backends.json").toFile());
    }

    static ObjectNode artifacts() throws IOException {
        return (ObjectNode) MAPPER.readTree(Path.of("third-party-artifacts.json").toFile());
    }

    static Result run(Path dir, ObjectNode backends, ObjectNode artifacts, Path dist) throws IOException {
        Path b = dir.resolve("b.json");
        Path a = dir.resolve("a.json");
        Files.writeString(b, MAPPER.writeValueAsString(backends));
        Files.writeString(a, MAPPER.writeValueAsString(artifacts));
        return runArgs(dist == null
                ? new String[] {"--backends", b.toString(), "--artifacts", a.toString()}
                : new String[] {"--backends", b.toString(), "--artifacts", a.toString(), "--dist", dist.toString()});
    }

    static Result runArgs(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LicenceGate.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A plausible distribution: one listed third-party jar, aasm's own sandlock adapter bundle and its conf file, docs. */
    static Path goodDist(Path root) throws IOException {
        Path dist = root.resolve("aasm-0.1.0");
        jar(dist.resolve("lib/jackson-core-2.23.0.jar"), null, "com.fasterxml.jackson.core", "jackson-core",
                "2.23.0", null, null);
        jar(dist.resolve("bundle/adapter-sandlock-0.1.0-SNAPSHOT.jar"), "io.aasm.adapter-sandlock", "io.aasm",
                "adapter-sandlock", "0.1.0-SNAPSHOT", null, null);
        jar(dist.resolve("bundle/jna-5.19.1.jar"), "com.sun.jna", "net.java.dev.jna", "jna", "5.19.1",
                "com/sun/jna/linux-x86-64/libjnidispatch.so", elf("jnidispatch"));
        Files.createDirectories(dist.resolve("docs"));
        Files.writeString(dist.resolve("docs/sandlock.md"), "# Sandlock\ninstall sandlock yourself\n");
        Files.createDirectories(dist.resolve("conf"));
        Files.writeString(dist.resolve("conf/io.aasm.backend.sandlock.cfg"), "#require.verified.provenance = false\n");
        Files.createDirectories(dist.resolve("bin"));
        Files.writeString(dist.resolve("bin/aasm"), "#!/bin/sh\nexec java -jar lib/launcher.jar \"$@\"\n");
        return dist;
    }

    static byte[] elf(String payload) {
        byte[] p = payload.getBytes(StandardCharsets.ISO_8859_1);
        byte[] out = new byte[4 + p.length];
        out[0] = 0x7f;
        out[1] = 'E';
        out[2] = 'L';
        out[3] = 'F';
        System.arraycopy(p, 0, out, 4, p.length);
        return out;
    }

    static void jar(Path file, String bsn, String group, String artifact, String version, String extraEntry,
                    byte[] extraBytes) throws IOException {
        Files.createDirectories(file.getParent());
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (bsn != null) {
            mf.getMainAttributes().putValue("Bundle-SymbolicName", bsn);
        }
        try (OutputStream os = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(os, mf)) {
            if (group != null) {
                jar.putNextEntry(new JarEntry("META-INF/maven/" + group + "/" + artifact + "/pom.properties"));
                jar.write(("groupId=" + group + "\nartifactId=" + artifact + "\nversion=" + version + "\n")
                        .getBytes(StandardCharsets.UTF_8));
                jar.closeEntry();
            }
            if (extraEntry != null) {
                jar.putNextEntry(new JarEntry(extraEntry));
                jar.write(extraBytes);
                jar.closeEntry();
            }
        }
    }

    private GateFixture() {
    }
}
