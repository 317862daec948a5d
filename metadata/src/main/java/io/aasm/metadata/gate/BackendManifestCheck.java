package io.aasm.metadata.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks metadata/isolation-backends.json: shape, SPDX, digests, channels, and that nothing is bundled. */
final class BackendManifestCheck {
    static final String SCHEMA = "aasm.isolation-backends/1";
    static final Set<String> CHANNELS = Set.of("tarball", "maven", "container");
    /** Strategies that put the backend's bits into an aasm artifact, i.e. that mean "bundled". */
    static final Set<String> SHIPPING_STRATEGIES = Set.of("bundled", "downloaded", "source");
    static final Set<String> STRATEGIES = Set.of("system", "not-distributed", "bundled", "downloaded", "source");
    static final Set<String> KINDS = Set.of("external-executable");
    private static final Set<String> FIELDS = Set.of("id", "kind", "executableNames", "pinnedVersion",
            "minimumVersion", "sha256", "sha256Note", "license", "upstream", "upstreamRef", "modified", "channels");

    private final Violations violations;
    private final JsonShape shape;

    BackendManifestCheck(Violations violations) {
        this.violations = violations;
        this.shape = new JsonShape(violations);
    }

    List<ExternalBackend> check(JsonNode root) {
        List<ExternalBackend> out = new ArrayList<>();
        String where = "isolation-backends.json";
        shape.onlyKnownFields(root, Set.of("schema", "backends"), where);
        shape.text(root, "schema", where).filter(s -> !s.equals(SCHEMA))
                .ifPresent(s -> violations.add(where + ": schema must be '" + SCHEMA + "', got '" + s + "'"));
        JsonNode backends = shape.array(root, "backends", where).orElse(null);
        if (backends == null) {
            return out;
        }
        if (backends.isEmpty()) {
            violations.add(where + ": 'backends' is empty; it must list every external backend");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < backends.size(); i++) {
            checkBackend(backends.get(i), where + " backends[" + i + "]", ids).ifPresent(out::add);
        }
        return out;
    }

    private java.util.Optional<ExternalBackend> checkBackend(JsonNode b, String where, Set<String> ids) {
        if (!b.isObject()) {
            violations.add(where + ": must be an object");
            return java.util.Optional.empty();
        }
        shape.onlyKnownFields(b, FIELDS, where);
        String id = shape.text(b, "id", where).orElse("?");
        if (!id.equals("?") && !id.matches("[a-z0-9][a-z0-9-]*")) {
            violations.add(where + ": id '" + id + "' must be lower-case letters, digits and dashes");
        }
        if (!ids.add(id)) {
            violations.add(where + ": duplicate backend id '" + id + "'");
        }
        String w = where + " (" + id + ")";
        shape.text(b, "kind", w).filter(k -> !KINDS.contains(k))
                .ifPresent(k -> violations.add(w + ": unknown kind '" + k + "' (known: " + KINDS + ")"));
        List<String> names = new ArrayList<>();
        shape.array(b, "executableNames", w).ifPresent(a -> {
            a.forEach(n -> {
                if (n.isTextual() && !n.asText().isBlank() && !n.asText().contains("/")) {
                    names.add(n.asText());
                } else {
                    violations.add(w + ": executableNames entries must be plain file names");
                }
            });
            if (a.isEmpty()) {
                violations.add(w + ": executableNames must name at least one file");
            }
        });
        shape.text(b, "pinnedVersion", w).filter(v -> !v.matches("\\d+\\.\\d+\\.\\d+"))
                .ifPresent(v -> violations.add(w + ": pinnedVersion '" + v + "' is not MAJOR.MINOR.PATCH"));
        shape.text(b, "minimumVersion", w).filter(v -> !v.matches("\\d+\\.\\d+\\.\\d+"))
                .ifPresent(v -> violations.add(w + ": minimumVersion '" + v + "' is not MAJOR.MINOR.PATCH"));
        Set<String> digests = new HashSet<>();
        shape.array(b, "sha256", w).ifPresent(a -> a.forEach(d -> {
            if (!d.isTextual() || !d.asText().matches("[0-9a-f]{64}")) {
                violations.add(w + ": malformed sha256 digest '" + d.asText() + "' (64 lower-case hex digits)");
            } else if (!digests.add(d.asText())) {
                violations.add(w + ": duplicate sha256 digest '" + d.asText() + "'");
            }
        }));
        shape.text(b, "sha256Note", w);
        String license = shape.text(b, "license", w).orElse(null);
        java.util.Optional<Spdx.Expression> expr = java.util.Optional.empty();
        if (license != null) {
            expr = Spdx.parse(license);
            if (expr.isEmpty()) {
                violations.add(w + ": license '" + license + "' is not a known SPDX expression");
            }
        }
        shape.text(b, "upstream", w).filter(u -> !u.startsWith("https://"))
                .ifPresent(u -> violations.add(w + ": upstream '" + u + "' must be an https:// URL"));
        shape.text(b, "upstreamRef", w);
        shape.bool(b, "modified", w);
        checkChannels(b, w, id, expr);
        return java.util.Optional.of(new ExternalBackend(id, names, digests));
    }

    private void checkChannels(JsonNode b, String w, String id, java.util.Optional<Spdx.Expression> license) {
        JsonNode channels = shape.object(b, "channels", w).orElse(null);
        if (channels == null) {
            return;
        }
        for (String c : new java.util.TreeSet<>(CHANNELS)) {
            if (!channels.has(c)) {
                violations.add(w + ": channel '" + c + "' is missing (every channel must say how it treats the backend)");
            }
        }
        for (Map.Entry<String, JsonNode> e : channels.properties()) {
            String c = e.getKey();
            String cw = w + " channel " + c;
            if (!CHANNELS.contains(c)) {
                violations.add(cw + ": unknown channel '" + c + "' (known: " + new java.util.TreeSet<>(CHANNELS) + ")");
                continue;
            }
            JsonNode ch = e.getValue();
            if (!ch.isObject()) {
                violations.add(cw + ": must be an object");
                continue;
            }
            shape.onlyKnownFields(ch, Set.of("strategy", "bundled"), cw);
            String strategy = shape.text(ch, "strategy", cw).orElse(null);
            Boolean bundled = shape.bool(ch, "bundled", cw).orElse(null);
            if (strategy != null && !STRATEGIES.contains(strategy)) {
                violations.add(cw + ": unknown strategy '" + strategy + "' (known: " + new java.util.TreeSet<>(STRATEGIES) + ")");
                continue;
            }
            if (strategy != null && bundled != null && SHIPPING_STRATEGIES.contains(strategy) != bundled) {
                violations.add(cw + ": bundled=" + bundled + " contradicts strategy '" + strategy + "'");
            }
            boolean ships = Boolean.TRUE.equals(bundled) || (strategy != null && SHIPPING_STRATEGIES.contains(strategy));
            if (ships) {
                violations.add(cw + ": external backend '" + id + "' is marked bundled; aasm distributes no backend binary");
                if (license.isPresent() && !Spdx.allowed(license.get())) {
                    violations.add(cw + ": backend '" + id + "' is bundled under a licence not on the allow list "
                            + new java.util.TreeSet<>(Spdx.ALLOWED));
                }
            }
        }
    }
}
