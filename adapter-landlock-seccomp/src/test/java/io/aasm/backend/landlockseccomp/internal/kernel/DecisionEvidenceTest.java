package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Denials during the run become per-decision records: a grandchild calls mkdir (on the syscall deny list)
 * twice and opens a packet socket (outside egress's socket rules) once; the post-run evidence counts each
 * under its domain. The effects are the denials themselves (no folder, the socket refused). Control: the
 * same actions without those two statements leave no run-time decision record (the folder is made).
 */
class DecisionEvidenceTest {
    @TempDir
    Path tmp;

    private static final String PY = """
            import socket
            try:
                socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
                print("packet: made")
            except OSError as e:
                print("packet: errno", e.errno)
            """;

    private List<EvidenceRecord> run(Path out, List<ControlRequirement> extra) throws Exception {
        Files.writeString(out.resolve("p.py"), PY);
        String action = "mkdir " + out.resolve("d1") + " " + out.resolve("d2") + " 2> " + out.resolve("err") + "; "
                + "python3 " + out.resolve("p.py") + " > " + out.resolve("packet");
        List<ControlRequirement> reqs = new java.util.ArrayList<>(List.of(read(), write(out.toString())));
        reqs.addAll(extra);
        var e = Harness.shared().start(Harness.grandchild("/bin/sh", action, tmp, Map.of(), reqs));
        e.await();
        return e.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.DECISION
                && r.detail().contains("during the run")).toList();
    }

    @Test
    void deniedCallsAreCountedUnderTheirDomain() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        List<EvidenceRecord> during = run(out, List.of(
                req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir", "mkdirat"))),
                req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain())));
        assertFalse(Files.exists(out.resolve("d1")), "the denied mkdir made nothing");
        assertTrue(Files.readString(out.resolve("packet")).contains("errno 1"), Files.readString(out.resolve("packet")));
        EvidenceRecord syscall = one(during, CapabilityDomain.SYSCALL);
        assertTrue(syscall.detail().startsWith("2 call(s) denied") && syscall.detail().contains("mkdir x2"),
                syscall.detail());
        EvidenceRecord egress = one(during, CapabilityDomain.NETWORK_EGRESS);
        assertTrue(egress.detail().contains("socket x1") && egress.detail().contains("socket(17, "),
                egress.detail());
    }

    @Test
    void withoutTheStatementsNothingIsDeniedOrRecorded() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        List<EvidenceRecord> during = run(out, List.of());
        assertTrue(Files.isDirectory(out.resolve("d1")), "control: mkdir works");
        assertEquals(List.of(), during.stream().filter(r -> r.domain().isPresent()).toList());
    }

    private static EvidenceRecord one(List<EvidenceRecord> records, CapabilityDomain d) {
        List<EvidenceRecord> of = records.stream().filter(r -> r.domain().equals(Optional.of(d))).toList();
        assertEquals(1, of.size(), records.toString());
        return of.get(0);
    }
}
