package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host narrowed by configuration (lower Landlock ABI, no privilege): the affected domain's
 * prerequisite is unsatisfied, so it cannot prevent, and a plan that still asks for it refuses in
 * prepare() before anything runs. Unaffected domains still launch.
 */
class RefusalBeforeLaunchTest {
    @TempDir
    Path tmp;

    private LandlockSeccompBackend narrowed(LandlockSeccompSettings s) {
        return new LandlockSeccompBackend(s.withProbeCacheDir(Harness.cacheDir()));
    }

    private static CapabilityReport report(LandlockSeccompBackend b, ExecutionSpec spec, CapabilityDomain d) {
        BackendCapabilities caps = b.plan(spec).capabilities();
        return caps.reportFor(d).orElseThrow();
    }

    private void assertRefusedBeforeLaunch(LandlockSeccompBackend b, CapabilityDomain d, ControlRequirement... reqs) throws Exception {
        Path marker = tmp.resolve("ran-" + d.token());
        ExecutionSpec spec = Harness.grandchild("/bin/sh", "touch " + marker, tmp, Map.of(), List.of(reqs));
        CapabilityReport r = report(b, spec, d);
        assertFalse(r.canPrevent(), d.token() + " must not claim prevention on the narrowed host");
        assertTrue(r.prerequisites().stream().anyMatch(p -> p.status() instanceof PrerequisiteStatus.Unsatisfied),
                "an unsatisfied prerequisite names what is missing: " + r.prerequisites());
        LaunchException e = assertThrows(LaunchException.class, () -> new Harness(b).run(spec));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, e.kind());
        assertTrue(e.getMessage().startsWith(d.token() + ":"), e.getMessage());
        assertFalse(Files.exists(marker), "nothing ran");
    }

    @Test
    void landlockAbiBelowThreeRefusesFilesystemWrite() throws Exception {
        LandlockSeccompBackend b = narrowed(LandlockSeccompSettings.defaults().withMaxLandlockAbi(2));
        Path out = Files.createDirectories(tmp.resolve("out"));
        assertRefusedBeforeLaunch(b, CapabilityDomain.FILESYSTEM_WRITE, read(), write(out.toString()));
        // Reading alone needs only ABI 1: still launches on the same narrowed host.
        Path ran = tmp.resolve("read-only-ran");
        new Harness(b).sh("true", tmp, read());
        new Harness(b).run(Harness.grandchild("/bin/sh", "echo x > " + ran, tmp, Map.of(), List.of(
                req(CapabilityDomain.SYSCALL, new Scope.Syscalls(io.aasm.ports.policy.SyscallMode.DENY, List.of("ptrace"))))));
        assertTrue(Files.exists(ran), "control: a domain the narrowed host still supports launches");
    }

    @Test
    void noLandlockRefusesFilesystemReadAndIpcScoping() throws Exception {
        LandlockSeccompBackend b = narrowed(LandlockSeccompSettings.defaults().withMaxLandlockAbi(0));
        assertRefusedBeforeLaunch(b, CapabilityDomain.FILESYSTEM_READ, read());
        assertRefusedBeforeLaunch(b, CapabilityDomain.IPC, req(CapabilityDomain.IPC, new Scope.WholeDomain()));
    }

    @Test
    void missingPrivilegeRefusesNamespaceAndCgroupDomains() throws Exception {
        LandlockSeccompBackend b = narrowed(LandlockSeccompSettings.defaults().withAssumeUnprivileged(true).withAssumeNoUserNamespaces(true));
        assertRefusedBeforeLaunch(b, CapabilityDomain.CREDENTIAL, req(CapabilityDomain.CREDENTIAL,
                new Scope.Delegated(List.of())));
        assertRefusedBeforeLaunch(b, CapabilityDomain.PROCESS_CREATION, req(CapabilityDomain.PROCESS_CREATION,
                new Scope.ProcessCeiling(8)));
    }

    @Test
    void evidenceIsSetupRunLevelAndCanaryDecisionsOnly() throws Exception {
        Harness h = Harness.shared();
        Path out = Files.createDirectories(tmp.resolve("out"));
        var handle = h.start(Harness.grandchild("/bin/sh", "echo hi > " + out.resolve("f"), tmp, Map.of(),
                List.of(read(), write(out.toString()))));
        handle.await();
        EnforcementEvidence ev = handle.evidence();
        // The only decisions are the canaries' (CanaryEvidenceTest): the program's own are not observed.
        assertTrue(ev.records().stream().filter(r -> r.kind() == EvidenceKind.DECISION)
                .allMatch(r -> r.detail().startsWith("canary ")), ev.records().toString());
        for (CapabilityDomain d : List.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.FILESYSTEM_WRITE)) {
            assertTrue(ev.records().stream().anyMatch(r -> r.kind() == EvidenceKind.CONFIGURED && r.domain().equals(
                    java.util.Optional.of(d))));
            assertTrue(ev.records().stream().anyMatch(r -> r.kind() == EvidenceKind.INSTALLED && r.domain().equals(
                    java.util.Optional.of(d))));
        }
        assertTrue(ev.records().stream().anyMatch(r -> r.kind() == EvidenceKind.EXERCISED && r.domain().isEmpty()));
        if (h.backend.facts().root() && h.backend.facts().cgroups().killHome().isPresent()) {
            // This host (root, a cgroup2 mount) lets the supervisor empty the tree's group at teardown.
            assertTrue(ev.records().stream().anyMatch(r -> r.kind() == EvidenceKind.EXERCISED
                    && r.detail().contains("cgroup.kill")), ev.records().toString());
        }
        assertInstanceOf(String.class, h.backend.identity().provenance().sha256().orElseThrow());
        assertEquals("Apache-2.0", h.backend.identity().provenance().license());
    }
}
