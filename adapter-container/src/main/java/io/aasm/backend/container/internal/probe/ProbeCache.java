package io.aasm.backend.container.internal.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * Probe results on disk, one file per (boot id, kernel release, engine id and version, root image, guard,
 * init, user, syscall table, suite version): {@code <dir>/aasm-container-<key>.json}. Anything that changes what a container is
 * made of makes a new key, so a stale verdict is never read. Written atomically (temp file + rename).
 */
public final class ProbeCache {
    public static final String AUTHORITY = "authority";
    public static final String RELAY = "transport_relay";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    public ProbeCache(Path dir, String... keyParts) {
        this.file = dir.resolve("aasm-container-" + key(keyParts) + ".json");
    }

    /** $XDG_CACHE_HOME/aasm/probes, else ~/.cache/aasm/probes (shared with the other backends' caches). */
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

    public record Entry(Instant measuredAt, Map<CapabilityDomain, ProbeResult> results, ProbeResult authority,
                        ProbeResult relay) {
    }

    public Optional<Entry> read() {
        try {
            JsonNode n = JSON.readTree(Files.readAllBytes(file));
            Map<CapabilityDomain, ProbeResult> out = new EnumMap<>(CapabilityDomain.class);
            n.path("results").fields().forEachRemaining(e -> CapabilityDomain.fromToken(e.getKey()).ifPresent(d ->
                    out.put(d, result(e.getValue()))));
            if (out.size() != CapabilityDomain.values().length || !n.has(AUTHORITY) || !n.has(RELAY)) {
                return Optional.empty();
            }
            return Optional.of(new Entry(Instant.parse(n.path("measured_at").asText()), out, result(n.get(AUTHORITY)),
                    result(n.get(RELAY))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // missing, unreadable or corrupt: probe again
        }
    }

    private static ProbeResult result(JsonNode n) {
        return new ProbeResult(ProbeResult.Verdict.valueOf(n.path("verdict").asText()), n.path("detail").asText());
    }

    public void write(Entry entry) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", "aasm.container.probes/1");
        root.put("measured_at", entry.measuredAt().toString());
        ObjectNode results = root.putObject("results");
        entry.results().forEach((d, r) -> results.putObject(d.token()).put("verdict", r.verdict().name())
                .put("detail", r.detail()));
        root.putObject(AUTHORITY).put("verdict", entry.authority().verdict().name()).put("detail",
                entry.authority().detail());
        root.putObject(RELAY).put("verdict", entry.relay().verdict().name()).put("detail", entry.relay().detail());
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), ".aasm-container-", ".tmp");
        Files.write(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
