package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.FailurePosture;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.Synchrony;
import io.aasm.ports.capability.Token;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The published --json schemas name exactly the ports' wire tokens, and backends and probe share one backend. */
class JsonSchemasTest {
    private static final Path DIR = Path.of(System.getProperty("aasm.root", ".."), "docs", "schema");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void backendsAndProbeDescribeTheSameBackend() throws Exception {
        assertEquals(schema("backends").get("$defs"), schema("probe").get("$defs"));
    }

    @Test
    void enumsAreThePortsTokens() throws Exception {
        JsonNode defs = schema("backends").get("$defs");
        check(defs.at("/domain/enum"), CapabilityDomain.values());
        check(defs.at("/reportedRow/properties/mediation/enum"), Mediation.values());
        check(defs.at("/reportedRow/properties/timing/enum"), DecisionTiming.values());
        check(defs.at("/reportedRow/properties/synchrony/enum"), Synchrony.values());
        check(defs.at("/reportedRow/properties/failure_posture/enum"), FailurePosture.values());
        check(defs.at("/reportedRow/properties/descendants/enum"), DescendantCoverage.values());
        check(defs.at("/capabilities/properties/platform_boundary/enum"), PlatformBoundary.values());
        check(defs.at("/backend/properties/identity/oneOf/1/properties/provenance/properties/status/enum"),
                ProvenanceStatus.values());
        JsonNode lowering = schema("policy-check").get("$defs");
        check(lowering.at("/domain/enum"), CapabilityDomain.values());
        JsonNode req = lowering.at("/lowering/properties/requirements/items/properties");
        check(req.at("/intent/enum"), RequirementIntent.values());
        check(req.at("/posture/enum"), RequirementPosture.values());
        check(req.at("/descendants/enum"), DescendantRequirement.values());
    }

    @Test
    void eachSchemaIdIsTheOneItsCommandWrites() throws Exception {
        assertEquals(BackendJson.BACKENDS_SCHEMA, schema("backends").at("/properties/schema/const").asText());
        assertEquals(BackendJson.PROBE_SCHEMA, schema("probe").at("/properties/schema/const").asText());
        assertEquals(PolicyCheckJson.SCHEMA, schema("policy-check").at("/properties/schema/const").asText());
        assertEquals(DaemonCommands.STATUS_SCHEMA, schema("daemon-status").at("/properties/schema/const").asText());
    }

    private static JsonNode schema(String name) throws Exception {
        return MAPPER.readTree(DIR.resolve(name + ".schema.json").toFile());
    }

    private static void check(JsonNode enumNode, Token[] tokens) {
        List<String> inSchema = new ArrayList<>();
        enumNode.forEach(n -> inSchema.add(n.asText()));
        assertEquals(Arrays.stream(tokens).map(Token::token).toList(), inSchema);
    }
}
