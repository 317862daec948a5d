package io.aasm.backend.landlockseccomp.internal.probe;

import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Probe results on disk, one file per (boot id, kernel release, launcher checksum, simulated-host
 * settings): {@code <dir>/aasm-native-<key>.json}. A new boot, kernel or launcher means a new key,
 * so stale results are never read. Written atomically (temp file + rename).
 */
public final class ProbeCache {
    private static final Pattern ENTRY = Pattern.compile(
            "\"([a-z_]+)\"\\s*:\\s*\\{\\s*\"verdict\"\\s*:\\s*\"([A-Z_]+)\"\\s*,\\s*\"detail\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*}");
    private static final Pattern MEASURED = Pattern.compile("\"measured_at\"\\s*:\\s*\"([^\"]+)\"");

    private final Path file;

    public ProbeCache(Path dir, String bootId, String kernelRelease, String launcherSha256, String settings) {
        this.file = dir.resolve("aasm-native-" + key(bootId, kernelRelease, launcherSha256, settings) + ".json");
    }

    /** $XDG_CACHE_HOME/aasm/probes, else ~/.cache/aasm/probes. */
    public static Path defaultDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("aasm").resolve("probes");
    }

    static String key(String... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String p : parts) {
                md.update(p.getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Path file() {
        return file;
    }

    public record Entry(Instant measuredAt, Map<CapabilityDomain, ProbeResult> results) {
    }

    public Optional<Entry> read() {
        try {
            String json = Files.readString(file);
            Matcher m = MEASURED.matcher(json);
            if (!m.find()) {
                return Optional.empty();
            }
            Instant at = Instant.parse(m.group(1));
            Map<CapabilityDomain, ProbeResult> out = new EnumMap<>(CapabilityDomain.class);
            Matcher e = ENTRY.matcher(json);
            while (e.find()) {
                Optional<CapabilityDomain> d = CapabilityDomain.fromToken(e.group(1));
                if (d.isPresent()) {
                    out.put(d.get(), new ProbeResult(ProbeResult.Verdict.valueOf(e.group(2)), unescape(e.group(3))));
                }
            }
            return Optional.of(new Entry(at, out));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // unreadable or corrupt: probe again
        }
    }

    public void write(Entry entry) throws IOException {
        StringBuilder b = new StringBuilder("{\n  \"schema\": \"aasm.native.probes/1\",\n  \"measured_at\": \"")
                .append(entry.measuredAt()).append("\",\n  \"results\": {");
        String sep = "\n";
        for (Map.Entry<CapabilityDomain, ProbeResult> e : entry.results().entrySet()) {
            b.append(sep).append("    \"").append(e.getKey().token()).append("\": {\"verdict\": \"")
                    .append(e.getValue().verdict().name()).append("\", \"detail\": \"")
                    .append(escape(e.getValue().detail())).append("\"}");
            sep = ",\n";
        }
        b.append("\n  }\n}\n");
        // A cache that was deleted is recreated as the user's alone: the probes decide what aasm claims.
        Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path tmp = Files.createTempFile(file.getParent(), ".probe-", ".json");
        Files.writeString(tmp, b.toString());
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String unescape(String s) {
        return s.replace("\\\"", "\"").replace("\\\\", "\\");
    }
}
