package io.aasm.metadata.gate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * Walks an assembled distribution: every third-party jar must be listed, and no external backend
 * binary may appear — neither by name (outside docs/) nor by content (an ELF whose digest is pinned,
 * or an ELF that names the backend, which catches a renamed binary whose digest nobody pinned).
 */
final class DistributionScan {
    private final Violations violations;
    private final List<ArtifactManifestCheck.Listed> listed;
    private final List<ExternalBackend> backends;
    private int files;

    DistributionScan(Violations violations, List<ArtifactManifestCheck.Listed> listed, List<ExternalBackend> backends) {
        this.violations = violations;
        this.listed = listed;
        this.backends = backends;
    }

    int scan(Path dist) throws IOException {
        if (!Files.isDirectory(dist)) {
            violations.add("distribution directory " + dist + " does not exist");
            return 0;
        }
        try (Stream<Path> walk = Files.walk(dist)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                files++;
                scanFile(dist, dist.relativize(p));
            }
        }
        return files;
    }

    private void scanFile(Path dist, Path rel) throws IOException {
        Path file = dist.resolve(rel);
        String relText = rel.toString().replace('\\', '/');
        boolean inDocs = relText.startsWith("docs/") || relText.startsWith("doc/");
        boolean firstPartyJar = false;
        if (relText.endsWith(".jar")) {
            firstPartyJar = checkJar(file, relText);
        }
        if (!inDocs && !firstPartyJar && !configText(file, relText)) {
            for (ExternalBackend b : backends) {
                if (relText.toLowerCase(Locale.ROOT).contains(b.id())) {
                    violations.add("distribution file " + relText + " is named after external backend '" + b.id()
                            + "'; aasm distributes no backend binary (only docs/ may mention it)");
                }
            }
        }
        try (InputStream in = Files.newInputStream(file)) {
            checkBytes(in.readAllBytes(), relText);
        }
    }

    /**
     * An operator configuration file, {@code conf/<pid>.cfg}, may carry a backend's name (its PID does):
     * it is text, so it is exempt from the name rule only when it holds no NUL byte and is not an ELF file.
     * Its bytes still go through the content checks like every other file.
     */
    private static boolean configText(Path file, String relText) throws IOException {
        if (!relText.matches("conf/[^/]+\\.cfg")) {
            return false;
        }
        byte[] bytes = Files.readAllBytes(file);
        for (byte b : bytes) {
            if (b == 0) {
                return false;
            }
        }
        return !(bytes.length >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F');
    }

    /** True when the jar is aasm's own bundle; otherwise it must be listed. */
    private boolean checkJar(Path file, String relText) throws IOException {
        try (JarFile jar = new JarFile(file.toFile())) {
            Manifest mf = jar.getManifest();
            String bsn = mf == null ? null : mf.getMainAttributes().getValue("Bundle-SymbolicName");
            List<Properties> poms = jar.stream().filter(e -> e.getName().startsWith("META-INF/maven/")
                    && e.getName().endsWith("/pom.properties")).map(e -> load(jar, e)).toList();
            boolean firstParty = (bsn != null && bsn.startsWith("io.aasm."))
                    || poms.stream().anyMatch(p -> "io.aasm".equals(p.getProperty("groupId")));
            for (ZipEntry e : jar.stream().filter(e -> !e.isDirectory()).toList()) {
                String base = e.getName().substring(e.getName().lastIndexOf('/') + 1);
                for (ExternalBackend b : backends) {
                    if (b.executableNames().contains(base)) {
                        violations.add("jar " + relText + " contains " + e.getName()
                                + ", an executable of external backend '" + b.id() + "'");
                    }
                }
                try (InputStream in = jar.getInputStream(e)) {
                    checkBytes(in.readNBytes(64 * 1024 * 1024), relText + "!/" + e.getName());
                }
            }
            if (firstParty) {
                return true;
            }
            String name = relText.substring(relText.lastIndexOf('/') + 1);
            boolean isListed = listed.stream().anyMatch(l -> l.fileName().equals(name)
                    || poms.stream().anyMatch(p -> l.groupId().equals(p.getProperty("groupId"))
                    && l.artifactId().equals(p.getProperty("artifactId"))
                    && l.version().equals(p.getProperty("version"))));
            if (!isListed) {
                violations.add("third-party jar " + relText + " is not listed in third-party-artifacts.json"
                        + " (add it with its SPDX licence, or stop bundling it)");
            }
            return false;
        } catch (java.util.zip.ZipException ex) {
            violations.add("file " + relText + " is named .jar but is not a readable jar: " + ex.getMessage());
            return false;
        }
    }

    private static Properties load(JarFile jar, ZipEntry e) {
        Properties p = new Properties();
        try (InputStream in = jar.getInputStream(e)) {
            p.load(in);
        } catch (IOException ex) {
            // An unreadable pom.properties simply does not identify the jar; the file-name match still applies.
        }
        return p;
    }

    private void checkBytes(byte[] bytes, String where) {
        if (bytes.length < 4 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F') {
            return;
        }
        String digest = sha256(bytes);
        String latin = new String(bytes, StandardCharsets.ISO_8859_1);
        for (ExternalBackend b : backends) {
            if (b.pinnedSha256().contains(digest)) {
                violations.add("ELF file " + where + " has sha256 " + digest + ", a pinned digest of external backend '"
                        + b.id() + "'");
            } else if (latin.contains(b.id())) {
                violations.add("ELF file " + where + " contains the name of external backend '" + b.id()
                        + "'; it looks like a renamed backend binary");
            }
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
