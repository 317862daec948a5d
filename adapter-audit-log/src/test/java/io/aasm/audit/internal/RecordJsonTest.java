package io.aasm.audit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The direct writer produces exactly Jackson's default output, so old and new records read and chain alike. */
class RecordJsonTest {
    private final ObjectMapper jackson = new ObjectMapper();

    @Test
    void aLaunchRecordIsWrittenAsJacksonWritesIt() throws Exception {
        Map<String, Object> record = LaunchRecord.of(Reports.launch(3));
        assertEquals(jackson.writeValueAsString(record), RecordJson.write(record));
    }

    @Test
    void everyAsciiCharacterAndSomeBeyondAreEscapedAsJacksonDoes() throws Exception {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0x80; c++) {
            all.append(c);
        }
        all.append("é€\u2028\uD83D\uDE00/");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", all.toString());
        m.put(all.toString(), List.of("a\"b", "", "c\\d"));
        m.put("n", -7);
        m.put("big", Long.MAX_VALUE);
        m.put("yes", true);
        m.put("none", null);
        m.put("nested", Map.of("list", new ArrayList<>(List.of(1, 2)), "empty", Map.of()));
        assertEquals(jackson.writeValueAsString(m), RecordJson.write(m));
    }

    @Test
    void anUnknownFieldTypeIsRefusedNotGuessed() {
        assertThrows(IllegalArgumentException.class, () -> RecordJson.write(Map.of("x", 1.5)));
    }
}
