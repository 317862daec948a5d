package io.aasm.kernel.internal.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The generated DS descriptor is what makes hot deploy work: every pluggable set must be a
 * dynamic, multiple, greedy reference, and the component must provide the kernel service.
 */
class ComponentDescriptorTest {

    @Test
    void pluggableSetsAreDynamicMultipleGreedyReferences() throws Exception {
        String xml = Files.readString(Path.of("target/classes/OSGI-INF/" + KernelComponent.class.getName() + ".xml"));
        assertTrue(xml.contains("<provide interface=\"io.aasm.ports.kernel.IsolationKernel\"/>"), xml);
        assertTrue(xml.contains("configuration-pid=\"io.aasm.kernel\""), xml);
        Matcher m = Pattern.compile("<reference [^>]*/>").matcher(xml);
        int seen = 0;
        while (m.find()) {
            String ref = m.group();
            seen++;
            for (String attr : List.of("cardinality=\"0..n\"", "policy=\"dynamic\"", "policy-option=\"greedy\"")) {
                assertTrue(ref.contains(attr), ref + " lacks " + attr);
            }
        }
        assertEquals(5, seen, xml); // backends, policy sources, renderers, audit logs, transport mediators
        assertTrue(Files.exists(Path.of("target/classes/OSGI-INF/metatype/" + KernelConfig.class.getName() + ".xml")));
    }
}
