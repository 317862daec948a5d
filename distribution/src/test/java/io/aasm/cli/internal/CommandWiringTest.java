package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The services the commands ask are bound in one component only: both faces take {@link CommandServices}
 * and bind nothing else. Read from the component descriptions bnd generated, which is what SCR acts on.
 */
class CommandWiringTest {
    private static final Pattern INTERFACE = Pattern.compile("<reference [^>]*interface=\"([^\"]+)\"");

    @Test
    void theFacesReferenceOnlyTheSharedServices() throws IOException {
        for (Class<?> face : List.of(GogoCommands.class, HeadlessEntry.class)) {
            assertEquals(List.of(CommandServices.class.getName()), referencedBy(face), face.getSimpleName());
        }
    }

    @Test
    void theSharedServicesBindEachCommandServiceOnce() throws IOException {
        assertEquals(List.of("io.aasm.ports.audit.AuditLog", "io.aasm.ports.kernel.IsolationKernel",
                "io.aasm.ports.report.ReportRenderer", "io.aasm.ports.conformance.ConformanceSuite"),
                referencedBy(CommandServices.class));
    }

    private static List<String> referencedBy(Class<?> component) throws IOException {
        String name = "OSGI-INF/" + component.getName() + ".xml";
        try (InputStream in = CommandWiringTest.class.getClassLoader().getResourceAsStream(name)) {
            assertNotNull(in, "no component description " + name + " (did bnd run?)");
            Matcher m = INTERFACE.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return m.results().map(r -> r.group(1)).toList();
        }
    }
}
