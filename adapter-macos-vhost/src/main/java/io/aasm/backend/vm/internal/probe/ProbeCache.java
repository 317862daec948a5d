package io.aasm.backend.vm.internal.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.aasm.backend.vm.internal.image.Digests;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Probe verdicts on disk, one file per (backend, hypervisor fingerprint, host kernel, suite version):
 * {@code <dir>/<backend>-<key>.json}. A new QEMU, guest image, agent or VM shape is a new key, so a verdict
 * measured on another guest is never read back. Written atomically.
 */
public final class ProbeCache {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Path file;

    public ProbeCache(Path dir, String backendId, String fingerprint) {
        String key = Digests.sha256((fingerprint + "\0" + System.getProperty("os.version") + "\0" + VmProbeSuite.VERSION)
                .getBytes(StandardCharsets.UTF_8)).substring(0, 24);
        this.file = dir.resolve(backendId + "-" + key + ".json");
    }

    public record Entry(Instant measuredAt, Map<CapabilityDomain, ProbeResult> results) {
    }

    public Path file() {
        return file;
    }

    public Optional<Entry> read() {
        try {
            JsonNode j = JSON.readTree(file.toFile());
            Map<CapabilityDomain, ProbeResult> out = new EnumMap<>(CapabilityDomain.class);
            for (Iterator<Map.Entry<String, JsonNode>> it = j.path("results").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                CapabilityDomain.fromToken(e.getKey()).ifPresent(d -> out.put(d, new ProbeResult(
                        ProbeResult.Verdict.valueOf(e.getValue().path("verdict").asText()),
                        e.getValue().path("detail").asText())));
            }
            return Optional.of(new Entry(Instant.parse(j.path("measured_at").asText()), out));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // absent or unreadable: probe again
        }
    }

    public void write(Entry entry) throws IOException {
        Map<String, Object> results = new LinkedHashMap<>();
        entry.results().forEach((d, r) -> results.put(d.token(), Map.of("verdict", r.verdict().name(), "detail",
                r.detail())));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", "aasm.vm.probes/1");
        doc.put("measured_at", entry.measuredAt().toString());
        doc.put("results", results);
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), ".probe-", ".json");
        Files.write(tmp, JSON.writeValueAsBytes(doc));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
