package io.aasm.backend.vm.internal.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aasm.backend.vm.internal.image.Digests;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Probe verdicts and the guest facts they were read with, on disk: {@code <dir>/<backend>-<key digest>.json}.
 * The file names its whole {@link ProbeKey} and a digest of its own content. It is read back only when it is
 * the user's own, writable by nobody else, its key equals the current one field by field, its digest matches,
 * and it holds a verdict for every domain; anything else is {@link Lookup#why() a reason} to measure again.
 * The digest catches a corrupted or hand-edited file; deliberate forgery is kept out by the folder being the
 * user's alone (0700) and a protected path no confined program is granted.
 */
public final class ProbeCache {
    static final String SCHEMA = "aasm.vm.probes/2";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path file;
    private final ProbeKey key;
    private final int uid;

    public ProbeCache(Path dir, ProbeKey key, int uid) {
        this.key = key;
        this.uid = uid;
        String digest = Digests.sha256(String.join("\0", key.parts().values()).getBytes(StandardCharsets.UTF_8));
        this.file = dir.resolve(key.backend() + "-" + digest.substring(0, 24) + ".json");
    }

    /** What the guest offered when the verdicts were measured (the routes are read against it). */
    public record Guest(String kernel, int landlockAbi, boolean cgroup) {
    }

    public record Entry(Instant measuredAt, Guest guest, Map<CapabilityDomain, ProbeResult> results) {
    }

    /** The entry when it may be trusted, else why not. */
    public record Lookup(Optional<Entry> entry, String why) {
        static Lookup no(String why) {
            return new Lookup(Optional.empty(), why);
        }
    }

    public Path file() {
        return file;
    }

    public Lookup read() {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Lookup.no("no verdicts cached for this QEMU, guest image and backend version");
        }
        try {
            Optional<String> unsafe = unsafe();
            if (unsafe.isPresent()) {
                return Lookup.no(unsafe.get());
            }
            JsonNode doc = JSON.readTree(Files.readAllBytes(file));
            if (!(doc instanceof ObjectNode o) || !SCHEMA.equals(o.path("schema").asText())) {
                return Lookup.no("the cache file " + file + " is not of schema " + SCHEMA);
            }
            String recorded = o.path("digest").asText();
            o.remove("digest");
            if (!recorded.equals(Digests.sha256(JSON.writeValueAsBytes(o)))) {
                return Lookup.no("the cache file " + file + " does not match its own digest (edited or corrupt)");
            }
            Map<String, String> k = new LinkedHashMap<>();
            o.path("key").fields().forEachRemaining(e -> k.put(e.getKey(), e.getValue().asText()));
            if (!k.equals(key.parts())) {
                return Lookup.no("the cache file " + file + " was measured under another key: " + k);
            }
            Map<CapabilityDomain, ProbeResult> results = new EnumMap<>(CapabilityDomain.class);
            for (CapabilityDomain d : CapabilityDomain.values()) {
                JsonNode r = o.path("results").path(d.token());
                if (r.isMissingNode()) {
                    return Lookup.no("the cache file " + file + " holds no verdict for " + d.token());
                }
                results.put(d, new ProbeResult(ProbeResult.Verdict.valueOf(r.path("verdict").asText()),
                        r.path("detail").asText()));
            }
            JsonNode g = o.path("guest");
            Guest guest = new Guest(g.path("kernel").asText(), g.path("landlock_abi").asInt(-1),
                    g.path("cgroup").asBoolean());
            if (guest.landlockAbi() < 0 || !g.path("cgroup").isBoolean()) {
                return Lookup.no("the cache file " + file + " does not record the guest's facts");
            }
            return new Lookup(Optional.of(new Entry(Instant.parse(o.path("measured_at").asText()), guest, results)),
                    "cached");
        } catch (IOException | RuntimeException e) {
            return Lookup.no("the cache file " + file + " could not be read: " + e.getMessage());
        }
    }

    /** A file or folder someone else owns or can write could say anything. */
    private Optional<String> unsafe() throws IOException {
        for (Path p : new Path[] {file, file.getParent()}) {
            int owner = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
            if (owner != uid || perms.contains(PosixFilePermission.GROUP_WRITE)
                    || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                return Optional.of(p + " is owned by uid " + owner + " with mode "
                        + PosixFilePermissions.toString(perms) + ": only the user's own, unshared cache is trusted");
            }
        }
        return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) ? Optional.empty()
                : Optional.of(file + " is not a regular file");
    }

    public void write(Entry entry) throws IOException {
        Map<String, Object> results = new LinkedHashMap<>();
        entry.results().forEach((d, r) -> results.put(d.token(), Map.of("verdict", r.verdict().name(), "detail",
                r.detail())));
        Map<String, Object> guest = new LinkedHashMap<>();
        guest.put("kernel", entry.guest().kernel());
        guest.put("landlock_abi", entry.guest().landlockAbi());
        guest.put("cgroup", entry.guest().cgroup());
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("key", key.parts());
        doc.put("measured_at", entry.measuredAt().toString());
        doc.put("guest", guest);
        doc.put("results", results);
        // The digest is over the compact form the reader re-serializes after removing it.
        doc.put("digest", Digests.sha256(JSON.writeValueAsBytes(JSON.valueToTree(doc))));
        Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path tmp = Files.createTempFile(file.getParent(), ".probe-", ".json");
        Files.write(tmp, JSON.writeValueAsBytes(doc));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
