package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.fixtures.Reordering;
import io.aasm.ports.report.fixtures.ReportFixtures;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class JsonReportRendererTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final JsonReportRenderer renderer = new JsonReportRenderer();
    private final Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(renderer.schema().orElseThrow(), InputFormat.JSON);

    private List<Error> validate(String json) {
        return schema.validate(json, InputFormat.JSON);
    }

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void validatesAgainstThePublishedSchema(String name) {
        String json = renderer.render(ReportFixtures.byName(name));
        assertEquals(List.of(), validate(json).stream().map(Error::toString).toList());
    }

    @Test
    void schemaRejectsAnUnknownFieldAMissingRowAndABadToken() throws Exception {
        ObjectNode tree = (ObjectNode) MAPPER.readTree(renderer.render(ReportFixtures.byName("ready")));
        assertTrue(validate(tree.deepCopy().put("sandboxed", true).toString()).size() > 0);
        ObjectNode eight = tree.deepCopy();
        ((ArrayNode) eight.get("domains")).remove(3);
        assertTrue(validate(eight.toString()).size() > 0);
        ObjectNode badClaim = tree.deepCopy();
        ((ObjectNode) badClaim.get("domains").get(0)).put("claim", "sandboxed");
        assertTrue(validate(badClaim.toString()).size() > 0);
        ObjectNode swapped = tree.deepCopy();
        ((ObjectNode) swapped.get("domains").get(0)).put("domain", "resource");
        assertTrue(validate(swapped.toString()).size() > 0, "rows are in the fixed domain order");
    }

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void deterministicSchemaFirstAndIndependentOfInputOrder(String name) throws Exception {
        IsolationReport report = ReportFixtures.byName(name);
        String first = renderer.render(report);
        assertEquals(first, renderer.render(report));
        assertEquals(first, renderer.render(Reordering.reordered(report)));
        JsonNode tree = MAPPER.readTree(first);
        assertEquals("schema", tree.fieldNames().next());
        assertEquals(IsolationReport.SCHEMA, tree.get("schema").asText());
        assertFalse(first.contains("\r"));
    }

    @Test
    void controlCharactersAreEscapedAndPreservedExactly() throws Exception {
        IsolationReport base = ReportFixtures.byName("ready");
        String hostile = "x\nposture: READY\u001b[0m\u2028";
        IsolationReport r = new IsolationReport(base.schema(), base.stage(), base.posture(), Optional.of(hostile),
                base.isolationClass(), new IdentityRef("a\u0000b", Optional.empty(), List.of()), base.target(),
                base.backend(), base.backendUnavailable(), base.selection(), base.policyOrigin(), base.requested(),
                base.domains(), base.refusals(), base.unmapped(), base.credentials(), base.descriptors(),
                base.authority(), base.outcome(), base.evidence());
        String json = renderer.render(r);
        json.chars().filter(c -> c != '\n').forEach(c -> assertFalse(Character.isISOControl(c), "raw control " + c));
        JsonNode tree = MAPPER.readTree(json);
        assertEquals(hostile, tree.get("posture_detail").asText());
        assertEquals("a\u0000b", tree.get("identity").get("agent_id").asText());
    }
}
