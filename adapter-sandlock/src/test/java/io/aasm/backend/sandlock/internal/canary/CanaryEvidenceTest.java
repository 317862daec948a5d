package io.aasm.backend.sandlock.internal.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Only a denial carrying this launch's own nonce, not contradicted from outside, is a decision. */
class CanaryEvidenceTest {
    @TempDir
    Path dir;

    private static List<CapabilityDomain> decided(List<EvidenceRecord> records) {
        return records.stream().filter(r -> r.kind() == EvidenceKind.DECISION
                && r.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION).map(r -> r.domain().orElseThrow()).toList();
    }

    @Test
    void aDenialWithThisLaunchsNonceIsADecision() throws Exception {
        try (CanaryBait b = CanaryBait.open(new CanaryChoice(Set.of(CanaryKind.FS_READ, CanaryKind.PROCESS),
                Optional.empty(), List.of()), dir)) {
            String line = "nonce=" + b.nonce() + " filesystem_read=denied/13 process_creation=denied/11";
            assertEquals(List.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.PROCESS_CREATION),
                    decided(CanaryEvidence.of(b, Optional.of(line), Optional.empty())));
            // one word different: another nonce proves nothing
            String other = line.replace(b.nonce(), "0000000000000000");
            List<EvidenceRecord> none = CanaryEvidence.of(b, Optional.of(other), Optional.empty());
            assertEquals(List.of(), decided(none));
            assertTrue(none.get(0).detail().contains("does not carry this launch's nonce"), none.toString());
            assertEquals(List.of(), decided(CanaryEvidence.of(b, Optional.empty(), Optional.empty())));
        }
    }

    @Test
    void anotherErrorOrWhatTheSupervisorSawIsNoDecision() throws Exception {
        try (CanaryBait b = CanaryBait.open(new CanaryChoice(Set.of(CanaryKind.FS_READ, CanaryKind.FS_WRITE),
                Optional.empty(), List.of()), dir)) {
            String line = "nonce=" + b.nonce() + " filesystem_read=error/2 filesystem_write=denied/13";
            assertEquals(List.of(CapabilityDomain.FILESYSTEM_WRITE),
                    decided(CanaryEvidence.of(b, Optional.of(line), Optional.empty())));
            assertEquals(List.of(), decided(CanaryEvidence.of(b, Optional.of(line),
                    Optional.of("filesystem_write: the canary created /x"))));
        }
    }
}
