package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.Token;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.backend.RefusalReason;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.report.CandidateVerdict;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.SelectionMode;
import io.aasm.ports.report.UnmeasuredReason;
import io.aasm.ports.report.fixtures.GoldenFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hand-written schema must name exactly the wire tokens the ports define, and docs must match it. */
class SchemaConsistencyTest {
    private static final Path PUBLISHED = Path.of("..", "docs", "schema", "isolation-report.schema.json");
    private final String bundled = new JsonReportRenderer().schema().orElseThrow();

    @Test
    void schemaEnumsAreThePortsTokens() throws Exception {
        JsonNode s = new ObjectMapper().readTree(bundled);
        JsonNode defs = s.get("$defs");
        JsonNode props = s.get("properties");
        check(defs.at("/domain/enum"), CapabilityDomain.values());
        check(defs.at("/timing/enum"), DecisionTiming.values());
        check(defs.at("/coverage/enum"), DescendantCoverage.values());
        check(defs.at("/intent/enum"), RequirementIntent.values());
        check(defs.at("/requirementPosture/enum"), RequirementPosture.values());
        check(defs.at("/descendantRequirement/enum"), DescendantRequirement.values());
        check(defs.at("/refusalReason/enum"), RefusalReason.values());
        check(defs.at("/unmeasuredReason/enum"), UnmeasuredReason.values());
        check(defs.at("/claim/enum"), ClaimTerm.values());
        check(defs.at("/evidenceBasis/enum"), EvidenceBasis.values());
        check(defs.at("/evidenceKind/enum"), EvidenceKind.values());
        check(defs.at("/egressGrant/properties/protocol/enum"), Protocol.values());
        check(props.at("/stage/enum"), ReportStage.values());
        check(props.at("/posture/enum"), ReportedPosture.values());
        check(props.at("/isolation_class/enum"), IsolationClass.values());
        check(props.at("/selection/oneOf/1/properties/mode/enum"), SelectionMode.values());
        check(props.at("/selection/oneOf/1/properties/considered/items/properties/verdict/enum"),
                CandidateVerdict.values());
        check(props.at("/backend/oneOf/1/properties/provenance/properties/status/enum"), ProvenanceStatus.values());
        check(defs.at("/scope/oneOf/6/properties/channels/items/enum"), IpcChannel.values());
        List<String> labels = new ArrayList<>();
        props.at("/posture_label/enum").forEach(n -> labels.add(n.asText()));
        assertEquals(Arrays.stream(ReportedPosture.values()).map(ReportedPosture::label).toList(), labels);
    }

    @Test
    void publishedCopyInDocsIsTheBundledSchema() throws Exception {
        if (GoldenFiles.updating()) {
            Files.writeString(PUBLISHED, bundled, StandardCharsets.UTF_8);
        }
        assertEquals(bundled, Files.readString(PUBLISHED, StandardCharsets.UTF_8),
                "docs/schema/isolation-report.schema.json differs from the bundled schema resource");
    }

    private static void check(JsonNode enumNode, Token[] tokens) {
        List<String> inSchema = new ArrayList<>();
        enumNode.forEach(n -> inSchema.add(n.asText()));
        assertEquals(Arrays.stream(tokens).map(Token::token).toList(), inSchema);
    }
}
