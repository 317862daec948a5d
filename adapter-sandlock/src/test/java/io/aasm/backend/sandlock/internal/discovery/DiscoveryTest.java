package io.aasm.backend.sandlock.internal.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ProvenanceStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery against the contract (§1: `--version` prints `sandlock 0.8.6`; `check` always exits 0 and
 * only its Status: line counts). The scripts here are fakes for discovery only — they never run a
 * program and nothing here tests confinement.
 */
class DiscoveryTest {
    private static final String OK_CHECK = "echo 'Landlock ABI: 7'; echo 'Status: OK'";

    @TempDir
    Path dir;

    private final Map<String, String> env = new HashMap<>();

    private Discovered discover(BackendManifest manifest, boolean requireVerified) {
        return new Discovery(n -> Optional.ofNullable(env.get(n)), new CommandRunner(10_000), manifest, requireVerified)
                .discover();
    }

    private Discovered discover() {
        return discover(BackendManifest.bundled(), false);
    }

    private Path fake(String name, String versionLine, String checkBody) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\ncase \"$1\" in\n --version) " + versionLine + " ;;\n check) " + checkBody
                + " ;;\n *) exit 2 ;;\nesac\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    private String reason(Discovered d) {
        return assertInstanceOf(Discovered.Unavailable.class, d).reason();
    }

    @Test
    void absentFromPathSaysHowToFix() {
        env.put("PATH", dir.toString());
        assertEquals("no `sandlock` executable on PATH; install sandlock 0.8.6 from"
                + " https://github.com/multikernel/sandlock/releases or set AA_SANDLOCK_BIN", reason(discover()));
    }

    @Test
    void envPointingNowhere() {
        env.put("AA_SANDLOCK_BIN", dir.resolve("nope").toString());
        assertTrue(reason(discover()).startsWith("AA_SANDLOCK_BIN=" + dir.resolve("nope") + " does not exist;"));
    }

    @Test
    void envRelativePathRefused() {
        env.put("AA_SANDLOCK_BIN", "bin/sandlock");
        assertTrue(reason(discover()).contains("is not an absolute path"));
    }

    @Test
    void directoryIsNotAnExecutable() throws IOException {
        Files.createDirectories(dir.resolve("d"));
        env.put("AA_SANDLOCK_BIN", dir.resolve("d").toString());
        assertTrue(reason(discover()).contains("is not a regular file"));
    }

    @Test
    void notExecutable() throws IOException {
        Path p = fake("sandlock", "echo 'sandlock 0.8.6'", OK_CHECK);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        env.put("AA_SANDLOCK_BIN", p.toString());
        assertEquals(p + " is not executable; chmod +x it or install sandlock 0.8.6 from"
                + " https://github.com/multikernel/sandlock/releases", reason(discover()));
    }

    @Test
    void unreadable() throws IOException {
        Path p = fake("sandlock", "echo 'sandlock 0.8.6'", OK_CHECK);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("-wx--x--x"));
        Assumptions.assumeFalse(Files.isReadable(p),
                "environment cannot host this check: running as root, every file is readable");
        env.put("AA_SANDLOCK_BIN", p.toString());
        assertTrue(reason(discover()).contains("is not readable, so its digest cannot be verified"));
    }

    @Test
    void noVersion() throws IOException {
        env.put("AA_SANDLOCK_BIN", fake("sandlock", "echo 'usage: something else'", OK_CHECK).toString());
        String r = reason(discover());
        assertTrue(r.contains("--version` printed no sandlock version (expected `sandlock 0.8.6`"), r);
    }

    @Test
    void versionCommandFails() throws IOException {
        env.put("AA_SANDLOCK_BIN", fake("sandlock", "exit 3", OK_CHECK).toString());
        assertTrue(reason(discover()).contains("got exit 3"));
    }

    @Test
    void tooOld() throws IOException {
        env.put("AA_SANDLOCK_BIN", fake("sandlock", "echo 'sandlock 0.8.5'", OK_CHECK).toString());
        Discovered.Unavailable u = assertInstanceOf(Discovered.Unavailable.class, discover());
        assertTrue(u.reason().startsWith("sandlock 0.8.5 at "), u.reason());
        assertTrue(u.reason().contains("is older than the minimum 0.8.6"));
        assertEquals(Optional.of(new Version(0, 8, 5)), u.version());
    }

    @Test
    void checkUnsupportedEvenThoughItExitsZero() throws IOException {
        env.put("AA_SANDLOCK_BIN", fake("sandlock", "echo 'sandlock 0.8.6'",
                "echo 'Status: UNSUPPORTED (upgrade kernel)'; exit 0").toString());
        assertTrue(reason(discover()).startsWith("`sandlock check` reports status 'UNSUPPORTED (upgrade kernel)'"
                + " instead of OK"));
    }

    @Test
    void checkWithoutStatusLine() throws IOException {
        env.put("AA_SANDLOCK_BIN", fake("sandlock", "echo 'sandlock 0.8.6'", "echo 'Landlock ABI: 7'").toString());
        assertTrue(reason(discover()).startsWith("`sandlock check` printed no Status: line"));
    }

    @Test
    void foundOnPathIsUnverifiedWithoutAPinnedDigest() throws IOException {
        Path p = fake("bin/sandlock", "echo 'sandlock 0.8.6'", OK_CHECK);
        env.put("PATH", dir.resolve("empty") + ":" + p.getParent());
        Discovered.Found f = assertInstanceOf(Discovered.Found.class, discover());
        assertEquals(p, f.executable());
        assertEquals("0.8.6", f.version().toString());
        assertEquals(Discovery.sha256(p).orElseThrow(), f.sha256());
        assertEquals(ProvenanceStatus.UNVERIFIED, f.provenance());
    }

    @Test
    void newerVersionIsAccepted() throws IOException {
        env.put("AA_SANDLOCK_BIN", fake("sandlock", "echo 'sandlock 0.9.1'", OK_CHECK).toString());
        assertEquals("0.9.1", assertInstanceOf(Discovered.Found.class, discover()).version().toString());
    }

    @Test
    void pinnedDigestIsVerified() throws IOException {
        Path p = fake("sandlock", "echo 'sandlock 0.8.6'", OK_CHECK);
        env.put("AA_SANDLOCK_BIN", p.toString());
        BackendManifest pinned = new BackendManifest(Version.parse("0.8.6"), Version.parse("0.8.6"),
                Set.of(Discovery.sha256(p).orElseThrow()), "Apache-2.0", "https://github.com/multikernel/sandlock",
                false);
        assertEquals(ProvenanceStatus.VERIFIED,
                assertInstanceOf(Discovered.Found.class, discover(pinned, true)).provenance());
    }

    @Test
    void requiredVerifiedProvenanceRefusesAnUnpinnedBinary() throws IOException {
        Path p = fake("sandlock", "echo 'sandlock 0.8.6'", OK_CHECK);
        env.put("AA_SANDLOCK_BIN", p.toString());
        String r = reason(discover(BackendManifest.bundled(), true));
        assertTrue(r.contains("which is not a pinned digest in isolation-backends.json, and"
                + " require.verified.provenance is set"), r);
    }

    @Test
    void bundledManifestMatchesTheMetadataModule() throws IOException {
        BackendManifest m = BackendManifest.bundled();
        assertEquals("0.8.6", m.pinnedVersion().toString());
        assertEquals("Apache-2.0", m.license());
        assertEquals(false, m.modified());
        String source = Files.readString(Path.of("../metadata/isolation-backends.json"));
        String bundled = new String(BackendManifest.class.getClassLoader()
                .getResourceAsStream(BackendManifest.RESOURCE).readAllBytes());
        assertEquals(source, bundled);
    }

    @Test
    void versionLineParsing() {
        assertEquals(Optional.of(new Version(0, 8, 6)), Version.fromVersionOutput("sandlock 0.8.6\n"));
        assertEquals(Optional.empty(), Version.fromVersionOutput("sandlock-oci 0.8.6"));
        assertEquals(Optional.empty(), Version.fromVersionOutput("sandlock 0.8"));
        assertTrue(new Version(0, 10, 0).compareTo(new Version(0, 9, 9)) > 0);
    }
}
