package io.aasm.support.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Only a denial carrying this launch's own nonce, not contradicted from outside, is a decision. */
class CanaryRecordsTest {
    private static final String NONCE = "0123456789abcdef";

    private static CanaryRecords.Launch launch(CapabilityDomain... planned) {
        return new CanaryRecords.Launch(NONCE, Set.of(planned), d -> "attempt on " + d.token(), "inside the test");
    }

    private static List<CapabilityDomain> decided(List<EvidenceRecord> records) {
        return records.stream().filter(r -> r.kind() == EvidenceKind.DECISION
                && r.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION).map(r -> r.domain().orElseThrow()).toList();
    }

    @Test
    void aDenialWithThisLaunchsNonceIsADecision() {
        CanaryRecords.Launch l = launch(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.PROCESS_CREATION);
        String line = "nonce=" + NONCE + " filesystem_read=denied/13 process_creation=denied/11";
        List<EvidenceRecord> records = CanaryRecords.ofLine(l, Optional.of(line), Optional.empty());
        assertEquals(List.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.PROCESS_CREATION), decided(records));
        assertTrue(records.get(0).detail().startsWith("canary " + NONCE + ": attempt on filesystem_read was denied "
                + "(errno 13) inside the test"), records.toString());
        // one word different: another nonce proves nothing
        List<EvidenceRecord> none = CanaryRecords.ofLine(l, Optional.of(line.replace(NONCE, "0000000000000000")),
                Optional.empty());
        assertEquals(List.of(), decided(none));
        assertTrue(none.get(0).detail().contains("does not carry this launch's nonce"), none.toString());
        assertEquals(List.of(), decided(CanaryRecords.ofLine(l, Optional.empty(), Optional.empty())));
    }

    @Test
    void anotherErrorOrWhatTheSupervisorSawIsNoDecision() {
        CanaryRecords.Launch l = launch(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.FILESYSTEM_WRITE);
        String line = "nonce=" + NONCE + " filesystem_read=error/2 filesystem_write=denied/13";
        assertEquals(List.of(CapabilityDomain.FILESYSTEM_WRITE),
                decided(CanaryRecords.ofLine(l, Optional.of(line), Optional.empty())));
        assertEquals(List.of(), decided(CanaryRecords.ofLine(l, Optional.of(line),
                Optional.of("filesystem_write: the canary created /x"))));
    }

    @Test
    void aPassedCanaryIsNamedAndNeverClaimed() {
        CanaryRecords.Launch l = launch(CapabilityDomain.CREDENTIAL);
        List<EvidenceRecord> r = CanaryRecords.ofLine(l, Optional.of("nonce=" + NONCE + " credential=passed/0"),
                Optional.empty());
        assertEquals(List.of(), decided(r));
        assertTrue(r.stream().anyMatch(x -> x.domain().equals(Optional.of(CapabilityDomain.CREDENTIAL))
                && x.detail().contains("was NOT denied")), r.toString());
    }

    @Test
    void aVerdictForADomainNotPlannedIsIgnored() {
        CanaryRecords.Launch l = launch(CapabilityDomain.IPC);
        assertEquals(List.of(CapabilityDomain.IPC), decided(CanaryRecords.of(l, Map.of(CapabilityDomain.IPC,
                CanaryVerdict.denied(1), CapabilityDomain.SYSCALL, CanaryVerdict.denied(1)), Optional.empty())));
    }
}
