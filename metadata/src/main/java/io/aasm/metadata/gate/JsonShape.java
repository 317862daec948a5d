package io.aasm.metadata.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;

/** Field-level checks shared by both manifests: presence, type and no unknown keys. */
final class JsonShape {
    private final Violations violations;

    JsonShape(Violations violations) {
        this.violations = violations;
    }

    Optional<String> text(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null) {
            violations.add(where + ": missing field '" + field + "'");
            return Optional.empty();
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            violations.add(where + ": field '" + field + "' must be a non-empty string");
            return Optional.empty();
        }
        return Optional.of(v.asText());
    }

    Optional<Boolean> bool(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null) {
            violations.add(where + ": missing field '" + field + "'");
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            violations.add(where + ": field '" + field + "' must be true or false");
            return Optional.empty();
        }
        return Optional.of(v.asBoolean());
    }

    Optional<JsonNode> array(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null) {
            violations.add(where + ": missing field '" + field + "'");
            return Optional.empty();
        }
        if (!v.isArray()) {
            violations.add(where + ": field '" + field + "' must be an array");
            return Optional.empty();
        }
        return Optional.of(v);
    }

    Optional<JsonNode> object(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null) {
            violations.add(where + ": missing field '" + field + "'");
            return Optional.empty();
        }
        if (!v.isObject()) {
            violations.add(where + ": field '" + field + "' must be an object");
            return Optional.empty();
        }
        return Optional.of(v);
    }

    void onlyKnownFields(JsonNode node, Set<String> known, String where) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                violations.add(where + ": unknown field '" + f + "'");
            }
        }
    }
}
