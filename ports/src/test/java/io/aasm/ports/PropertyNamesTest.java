package io.aasm.ports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendRanking;
import io.aasm.ports.policy.PolicyFormat;
import io.aasm.ports.report.ReportFormatName;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The published {@code NAME} of each component property type is the name DS derives from the type (a
 * single-element annotation: {@code PREFIX_} plus the simple name, a dot before each inner capital,
 * lower case), so readers of service properties and the components that set them cannot drift apart.
 */
class PropertyNamesTest {

    private static String derived(Class<?> type, String prefix) {
        String simple = type.getSimpleName();
        StringBuilder sb = new StringBuilder(prefix);
        for (int i = 0; i < simple.length(); i++) {
            char c = simple.charAt(i);
            if (Character.isUpperCase(c) && i > 0) {
                sb.append('.');
            }
            sb.append(Character.toLowerCase(c));
        }
        return sb.toString();
    }

    @Test
    void eachNameIsTheOneDsDerives() {
        record Type(Class<?> type, String prefix, String name) {
        }
        for (Type t : List.of(new Type(BackendId.class, BackendId.PREFIX_, BackendId.NAME),
                new Type(BackendRanking.class, BackendRanking.PREFIX_, BackendRanking.NAME),
                new Type(PolicyFormat.class, PolicyFormat.PREFIX_, PolicyFormat.NAME),
                new Type(ReportFormatName.class, ReportFormatName.PREFIX_, ReportFormatName.NAME))) {
            assertEquals(derived(t.type(), t.prefix()), t.name(), t.type().getSimpleName());
        }
    }

    @Test
    void theWireNamesAreTheDocumentedOnes() {
        // changing one breaks every deployed filter and third-party backend: this pins them
        assertEquals(List.of("aasm.backend.id", "aasm.backend.ranking", "aasm.policy.format",
                "aasm.report.format.name"), List.of(BackendId.NAME, BackendRanking.NAME, PolicyFormat.NAME,
                ReportFormatName.NAME));
    }
}
