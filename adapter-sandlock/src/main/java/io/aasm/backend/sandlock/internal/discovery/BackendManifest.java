package io.aasm.backend.sandlock.internal.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.TreeSet;

/**
 * The sandlock row of metadata/isolation-backends.json, bundled into this jar at build time (the
 * metadata module owns the file and its gate; adapters may not depend on each other).
 */
public record BackendManifest(Version pinnedVersion, Version minimumVersion, Set<String> pinnedSha256,
                              String license, String upstream, boolean modified) {
    public static final String RESOURCE = "META-INF/aasm/isolation-backends.json";

    public BackendManifest {
        pinnedSha256 = Set.copyOf(pinnedSha256);
    }

    public static BackendManifest bundled() {
        try (InputStream in = BackendManifest.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the adapter-sandlock bundle (build defect)");
            }
            return parse(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    static BackendManifest parse(JsonNode root) {
        for (JsonNode b : root.path("backends")) {
            if ("sandlock".equals(b.path("id").asText())) {
                Set<String> digests = new TreeSet<>();
                b.path("sha256").forEach(d -> digests.add(d.asText()));
                return new BackendManifest(Version.parse(b.path("pinnedVersion").asText()),
                        Version.parse(b.path("minimumVersion").asText()), digests, b.path("license").asText(),
                        b.path("upstream").asText(), b.path("modified").asBoolean(true));
            }
        }
        throw new IllegalStateException(RESOURCE + " has no sandlock row (build defect)");
    }
}
