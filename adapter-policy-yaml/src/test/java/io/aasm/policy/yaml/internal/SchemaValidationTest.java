package io.aasm.policy.yaml.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The schema checked by a real 2020-12 validator: it is itself a valid schema, every valid example
 * passes it, and the corpus cases a schema can express fail it too (so editors flag them early).
 */
class SchemaValidationTest {
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final String schemaText = new YamlPolicySource().jsonSchema().orElseThrow();
    private final Schema schema = REGISTRY.getSchema(schemaText, InputFormat.JSON);

    private static String asJson(Path yamlFile) throws IOException {
        String yaml = Files.readString(yamlFile, StandardCharsets.UTF_8).replace("\uFEFF", "");
        return new ObjectMapper().writeValueAsString(new YAMLMapper().readTree(yaml));
    }

    @Test
    void schemaIsAValidDraft202012Schema() {
        Schema meta = REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));
        List<Error> errors = meta.validate(schemaText, InputFormat.JSON);
        assertEquals(List.of(), errors.stream().map(Error::toString).toList());
    }

    @Test
    void everyValidExamplePassesTheSchema() throws IOException {
        try (Stream<Path> files = Files.list(TestFiles.resource("valid"))) {
            for (Path f : files.sorted().toList()) {
                List<Error> errors = schema.validate(asJson(f), InputFormat.JSON);
                assertEquals(List.of(), errors.stream().map(Error::toString).toList(), f.getFileName().toString());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"missing-apiversion", "missing-kind", "wrong-apiversion", "unknown-top-key",
        "isolation-unknown", "filesystem-empty", "read-missing-allow", "relative-path",
        "bad-posture", "network-unknown-key", "egress-port-out-of-range", "egress-port-and-ports",
        "syscalls-both", "syscalls-empty-deny", "syscalls-neither", "process-both",
        "process-neither", "process-spawn-allow", "ipc-unknown-channel", "credentials-bad-name",
        "resources-empty", "resources-decimal-unit"})
    void schemaExpressibleMistakesFailTheSchemaToo(String name) throws IOException {
        Path file = TestFiles.corpus(name);
        assertFalse(schema.validate(asJson(file), InputFormat.JSON).isEmpty(), name + " passes the schema");
    }
}
