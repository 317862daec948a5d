package io.aasm.metadata.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Checks metadata/third-party-artifacts.json: every bundled artifact has an allowed licence. */
final class ArtifactManifestCheck {
    static final String SCHEMA = "aasm.third-party-artifacts/1";
    private static final Set<String> FIELDS = Set.of("groupId", "artifactId", "version", "license", "upstream",
            "licenseEvidence");

    /** A listed artifact; {@code fileName} is the Maven default name the distribution copies it under. */
    record Listed(String groupId, String artifactId, String version) {
        String fileName() {
            return artifactId + "-" + version + ".jar";
        }
    }

    private final Violations violations;
    private final JsonShape shape;

    ArtifactManifestCheck(Violations violations) {
        this.violations = violations;
        this.shape = new JsonShape(violations);
    }

    List<Listed> check(JsonNode root) {
        List<Listed> out = new ArrayList<>();
        String where = "third-party-artifacts.json";
        shape.onlyKnownFields(root, Set.of("schema", "artifacts"), where);
        shape.text(root, "schema", where).filter(s -> !s.equals(SCHEMA))
                .ifPresent(s -> violations.add(where + ": schema must be '" + SCHEMA + "', got '" + s + "'"));
        JsonNode artifacts = shape.array(root, "artifacts", where).orElse(null);
        if (artifacts == null) {
            return out;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < artifacts.size(); i++) {
            JsonNode a = artifacts.get(i);
            String w = where + " artifacts[" + i + "]";
            if (!a.isObject()) {
                violations.add(w + ": must be an object");
                continue;
            }
            shape.onlyKnownFields(a, FIELDS, w);
            String g = shape.text(a, "groupId", w).orElse("?");
            String art = shape.text(a, "artifactId", w).orElse("?");
            String v = shape.text(a, "version", w).orElse("?");
            String id = g + ":" + art;
            if (!seen.add(id)) {
                violations.add(w + ": duplicate artifact '" + id + "'");
            }
            shape.text(a, "upstream", w).filter(u -> !u.startsWith("https://"))
                    .ifPresent(u -> violations.add(w + " (" + id + "): upstream '" + u + "' must be an https:// URL"));
            shape.text(a, "licenseEvidence", w);
            shape.text(a, "license", w).ifPresent(l -> {
                var expr = Spdx.parse(l);
                if (expr.isEmpty()) {
                    violations.add(w + " (" + id + "): license '" + l + "' is not a known SPDX expression");
                } else if (!Spdx.allowed(expr.get())) {
                    violations.add(w + " (" + id + "): license '" + l + "' is not on the allow list "
                            + new java.util.TreeSet<>(Spdx.ALLOWED) + " for a bundled artifact");
                }
            });
            out.add(new Listed(g, art, v));
        }
        return out;
    }
}
