package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.ports.report.fixtures.ReportFixtures;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The kv block and the JSON document carry the same facts for every fixture. */
class CrossFormatTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void kvAndJsonAgree(String name) throws Exception {
        Map<String, String> kv = KvReportRendererTest.parse(new KvReportRenderer().render(ReportFixtures.byName(name)));
        JsonNode j = MAPPER.readTree(new JsonReportRenderer().render(ReportFixtures.byName(name)));
        for (String k : new String[] {"schema", "stage", "posture", "isolation_class", "policy_origin"}) {
            assertEquals(j.get(k).asText(), kv.get(k), k);
        }
        assertEquals(j.at("/least_authority/holds").asText(), kv.get("least_authority"));
        assertEquals(j.at("/target/program").asText(), kv.get("target_program"));
        assertEquals(!j.get("backend").isNull(), Boolean.parseBoolean(kv.get("backend_selected")));
        if (!j.get("backend").isNull()) {
            assertEquals(j.at("/backend/id").asText(), kv.get("backend_id"));
            assertEquals(j.at("/backend/provenance/status").asText(), kv.get("backend_provenance"));
        }
        JsonNode requested = j.get("requested");
        assertEquals(String.valueOf(requested.size()), kv.get("requested_requirement_count"));
        for (int i = 0; i < requested.size(); i++) {
            assertEquals(requested.get(i).get("domain").asText(), kv.get("requested." + i + ".domain"));
            assertEquals(requested.get(i).at("/scope/kind").asText(), kv.get("requested." + i + ".scope_kind"));
        }
        for (JsonNode row : j.get("domains")) {
            String k = "domain." + row.get("domain").asText();
            assertEquals(row.at("/requested/kind").asText(), kv.get(k + ".requested"));
            assertEquals(row.at("/state/kind").asText(), kv.get(k + ".state"));
            assertEquals(row.get("claim").asText(), kv.get(k + ".claim"));
            assertEquals(row.get("evidence").asText(), kv.get(k + ".evidence"));
            assertEquals(row.get("mechanism").asText(), kv.get(k + ".mechanism"));
            assertEquals(String.valueOf(row.get("policy_gaps").size()), kv.get(k + ".policy_gap_count"));
            assertEquals(String.valueOf(row.get("limitations").size()), kv.get(k + ".limitation_count"));
        }
        JsonNode refusals = j.get("refusals");
        assertEquals(String.valueOf(refusals.size()), kv.get("refusal_count"));
        for (int i = 0; i < refusals.size(); i++) {
            JsonNode e = refusals.get(i);
            assertEquals(e.get("domain").isNull() ? null : e.get("domain").asText(), kv.get("refusal." + i + ".domain"));
            assertEquals(e.get("reason").asText(), kv.get("refusal." + i + ".reason"));
            assertEquals(e.get("detail").asText(), kv.get("refusal." + i + ".detail"));
        }
        for (String list : new String[] {"removed", "delegated", "ambient_unremoved"}) {
            JsonNode names = j.at("/credentials/" + list);
            assertEquals(String.valueOf(names.size()), kv.get("credential." + list + "_count"));
            for (int i = 0; i < names.size(); i++) {
                assertEquals(names.get(i).asText(), kv.get("credential." + list + "." + i));
            }
        }
        assertEquals(j.at("/credentials/environ_caveat").asText(), kv.get("credential.environ_caveat"));
        assertEquals(!j.get("descriptors").isNull(), Boolean.parseBoolean(kv.get("descriptors_present")));
        assertEquals(!j.get("evidence").isNull(), Boolean.parseBoolean(kv.get("evidence_present")));
        if (!j.get("evidence").isNull()) {
            JsonNode records = j.at("/evidence/records");
            assertEquals(String.valueOf(records.size()), kv.get("evidence.record_count"));
            for (int i = 0; i < records.size(); i++) {
                assertEquals(records.get(i).get("claim").asText(), kv.get("evidence." + i + ".claim"));
            }
        }
        assertFalse(kv.containsKey("sandboxed"));
    }
}
