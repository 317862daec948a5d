package io.aasm.ports.report;

import static io.aasm.ports.capability.CapabilityDomain.NETWORK_EGRESS;
import static io.aasm.ports.capability.CapabilityDomain.RESOURCE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportOrderTest {
    @Test
    void launchWideRefusalsKeepTheirOrderAheadOfDomainOnes() {
        RefusalEntry summary = new RefusalEntry(Optional.empty(), "no_backend_eligible", "summary");
        RefusalEntry candidate = new RefusalEntry(Optional.empty(), "not_installed", "candidate");
        RefusalEntry resource = new RefusalEntry(Optional.of(RESOURCE), "prerequisite_unsatisfied", "r");
        RefusalEntry egress = new RefusalEntry(Optional.of(NETWORK_EGRESS), "domain_unsupported", "e");
        assertEquals(List.of(summary, candidate, egress, resource),
                List.of(resource, summary, egress, candidate).stream().sorted(ReportOrder.REFUSALS).toList());
    }

    @Test
    void sortedIsACopy() {
        List<String> in = List.of("b", "a");
        assertEquals(List.of("a", "b"), ReportOrder.sorted(in));
        assertEquals(List.of("b", "a"), in);
    }
}
