package io.aasm.policy.yaml.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published JSON Schema: well-formed, closed (additionalProperties false), described, bundled
 * byte for byte, and in step with the reader in both directions (valid examples use only schema
 * keys; every schema key occurs in some valid example, which the reader accepts).
 */
class SchemaTest {
    private static final Path PUBLISHED = Path.of("..", "docs", "schema", "policy.schema.json");
    private final String text = new YamlPolicySource().jsonSchema().orElseThrow();
    private final JsonNode schema = readJson(text);

    private static JsonNode readJson(String s) {
        try {
            return new ObjectMapper().readTree(s);
        } catch (IOException e) {
            throw new AssertionError("the schema is not valid JSON", e);
        }
    }

    @Test
    void bundledSchemaIsThePublishedFile() throws IOException {
        assertEquals(Files.readString(PUBLISHED, StandardCharsets.UTF_8), text);
        assertEquals("https://json-schema.org/draft/2020-12/schema", schema.get("$schema").asText());
        assertEquals("aasm/v1", schema.at("/properties/apiVersion/const").asText());
    }

    @Test
    void everyObjectIsClosedAndEveryPropertyDescribed() {
        List<String> faults = new ArrayList<>();
        walkSchema(schema, "#", faults);
        assertEquals(List.of(), faults);
    }

    private void walkSchema(JsonNode node, String where, List<String> faults) {
        if (node.isObject()) {
            if (node.has("properties")) {
                JsonNode extra = node.get("additionalProperties");
                boolean freeForm = where.endsWith("/metadata") && extra != null && extra.isObject();
                if (!freeForm && (extra == null || !extra.isBoolean() || extra.asBoolean())) {
                    faults.add(where + ": additionalProperties must be false");
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = node.get("properties").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> p = it.next();
                    if (!p.getValue().has("description") && !p.getValue().has("$ref")) {
                        faults.add(where + "/properties/" + p.getKey() + ": no description");
                    }
                }
            }
            node.fields().forEachRemaining(e -> walkSchema(e.getValue(), where + "/" + e.getKey(), faults));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walkSchema(node.get(i), where + "/" + i, faults);
            }
        }
    }

    @Test
    void validExamplesUseOnlyKeysTheSchemaKnows() throws IOException {
        List<String> unknown = new ArrayList<>();
        try (Stream<Path> files = Files.list(TestFiles.resource("valid"))) {
            for (Path f : files.sorted().toList()) {
                JsonNode doc = new YAMLMapper().readTree(Files.readString(f, StandardCharsets.UTF_8).replace("\uFEFF", ""));
                walkDocument(doc, schema, f.getFileName() + ":", unknown);
            }
        }
        assertEquals(List.of(), unknown);
    }

    @Test
    void everySchemaKeyAppearsInAValidExample() throws IOException {
        Set<String> schemaPaths = new TreeSet<>();
        schemaPaths(schema, "", schemaPaths);
        Set<String> docPaths = new TreeSet<>();
        try (Stream<Path> files = Files.list(TestFiles.resource("valid"))) {
            for (Path f : files.toList()) {
                String yaml = Files.readString(f, StandardCharsets.UTF_8).replace("\uFEFF", "");
                docPaths(new YAMLMapper().readTree(yaml), "", docPaths);
            }
        }
        Set<String> missing = new TreeSet<>(schemaPaths);
        missing.removeAll(docPaths);
        assertEquals(Set.of(), missing, "schema keys no valid example uses (so the reader never accepted them)");
        assertTrue(schemaPaths.size() > 30, "schema has " + schemaPaths.size() + " key paths");
    }

    private JsonNode resolve(JsonNode s) {
        JsonNode out = s;
        while (out.has("$ref")) {
            out = schema.at(out.get("$ref").asText().substring(1));
        }
        return out;
    }

    private List<JsonNode> branches(JsonNode s) {
        JsonNode r = resolve(s);
        List<JsonNode> out = new ArrayList<>(List.of(r));
        for (String k : List.of("oneOf", "anyOf", "allOf")) {
            if (r.has(k)) {
                r.get(k).forEach(b -> out.addAll(branches(b)));
            }
        }
        return out;
    }

    private Optional<JsonNode> property(JsonNode s, String key) {
        for (JsonNode b : branches(s)) {
            if (b.has("properties") && b.get("properties").has(key)) {
                return Optional.of(b.get("properties").get(key));
            }
        }
        return branches(s).stream().filter(b -> b.path("additionalProperties").isObject())
                .map(b -> b.get("additionalProperties")).findFirst();
    }

    private void walkDocument(JsonNode doc, JsonNode s, String where, List<String> unknown) {
        if (doc.isObject()) {
            doc.fields().forEachRemaining(e -> property(s, e.getKey()).ifPresentOrElse(
                    p -> walkDocument(e.getValue(), p, where + "." + e.getKey(), unknown),
                    () -> unknown.add(where + "." + e.getKey())));
        } else if (doc.isArray()) {
            JsonNode items = branches(s).stream().filter(b -> b.has("items")).map(b -> b.get("items")).findFirst()
                    .orElse(null);
            if (items == null) {
                unknown.add(where + " (list where the schema has none)");
                return;
            }
            doc.forEach(d -> walkDocument(d, items, where + "[]", unknown));
        }
    }

    private void schemaPaths(JsonNode s, String prefix, Set<String> out) {
        for (JsonNode b : branches(s)) {
            if (b.has("properties")) {
                b.get("properties").fields().forEachRemaining(e -> {
                    String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
                    out.add(path);
                    schemaPaths(e.getValue(), path, out);
                });
            }
            if (b.has("items")) {
                schemaPaths(b.get("items"), prefix + "[]", out);
            }
        }
    }

    private void docPaths(JsonNode doc, String prefix, Set<String> out) {
        if (doc.isObject()) {
            doc.fields().forEachRemaining(e -> {
                String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
                out.add(path);
                docPaths(e.getValue(), path, out);
            });
        } else if (doc.isArray()) {
            doc.forEach(d -> docPaths(d, prefix + "[]", out));
        }
    }
}
