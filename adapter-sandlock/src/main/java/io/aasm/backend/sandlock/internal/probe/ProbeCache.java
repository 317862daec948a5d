package io.aasm.backend.sandlock.internal.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * Probe results cached per host boot, kernel release and sandlock digest: a reboot, a kernel
 * upgrade or a different binary all invalidate them, and an ordinary launch never pays for probing.
 */
public final class ProbeCache {
    private final Path dir;
    private final Path procRoot;
    private final ObjectMapper mapper = new ObjectMapper();

    public ProbeCache(Path dir, Path procRoot) {
        this.dir = dir;
        this.procRoot = procRoot;
    }

    public String key(String sandlockSha256) {
        String boot = read(procRoot.resolve("sys/kernel/random/boot_id"));
        String kernel = read(procRoot.resolve("sys/kernel/osrelease"));
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest((boot + "|" + kernel + "|" + sandlockSha256)
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Optional<ProbeResults> load(String key) {
        Path f = dir.resolve("sandlock-probes-" + key + ".json");
        try {
            JsonNode n = mapper.readTree(f.toFile());
            Map<String, PrerequisiteStatus> out = new HashMap<>();
            n.path("outcomes").properties().forEach(e -> {
                String status = e.getValue().path("status").asText();
                String text = e.getValue().path("text").asText();
                out.put(e.getKey(), switch (status) {
                    case "satisfied" -> new PrerequisiteStatus.Satisfied(text);
                    case "unsatisfied" -> new PrerequisiteStatus.Unsatisfied(text);
                    default -> new PrerequisiteStatus.Unchecked(text);
                });
            });
            return Optional.of(new ProbeResults(out, Instant.parse(n.path("measuredAt").asText())));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public void store(String key, ProbeResults r) {
        ObjectNode root = mapper.createObjectNode();
        root.put("measuredAt", r.measuredAt().toString());
        ObjectNode outcomes = root.putObject("outcomes");
        r.outcomes().forEach((name, s) -> {
            String text = s instanceof PrerequisiteStatus.Satisfied x ? x.observation()
                    : s instanceof PrerequisiteStatus.Unsatisfied y ? y.detail()
                    : ((PrerequisiteStatus.Unchecked) s).detail();
            outcomes.putObject(name).put("status", s.token()).put("text", text);
        });
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "sandlock-probes", ".tmp");
            Files.writeString(tmp, mapper.writeValueAsString(root));
            Files.move(tmp, dir.resolve("sandlock-probes-" + key + ".json"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // An unwritable cache only means the next activation probes again.
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
