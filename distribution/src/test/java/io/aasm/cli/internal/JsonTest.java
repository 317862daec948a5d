package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The --json writer: field order kept, nulls written, no raw control character ever reaches the output. */
class JsonTest {
    @Test
    void fieldsKeepTheirOrderAndAbsentFactsAreNull() {
        Map<String, Object> doc = Json.object("aasm.test/1");
        doc.put("b", 1);
        doc.put("a", Arrays.asList(true, null, 2L));
        doc.put("empty", List.of());
        doc.put("none", Map.of());
        assertEquals("{\n  \"schema\": \"aasm.test/1\",\n  \"b\": 1,\n  \"a\": [\n    true,\n    null,\n    2\n  ],\n"
                + "  \"empty\": [],\n  \"none\": {}\n}\n", Json.render(doc));
    }

    @Test
    void hostileStringsAreEscaped() {
        assertEquals("\"q\\\" b\\\\ n\\n t\\t e\\u001b[0m d\\u007f l\\u2028 \u00e9\"\n",
                Json.render("q\" b\\ n\n t\t e\u001b[0m d\u007f l\u2028 \u00e9"));
    }

    @Test
    void anythingElseIsAProgrammingError() {
        assertThrows(IllegalArgumentException.class, () -> Json.render(new Object()));
    }
}
