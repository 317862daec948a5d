package io.aasm.backend.sandlock.internal.capability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decision logic only (which grants overlap aasm's own state); that the refusal keeps a protected file
 * unchanged under the real sandlock is the distribution's {@code ProtectedConfIT}.
 */
class OwnStateTest {
    @TempDir
    Path dir;

    private static BackendCapabilities available() {
        return new BackendCapabilities(new Availability.Available(), PlatformBoundary.SHARED_HOST_KERNEL,
                Map.of(CapabilityDomain.FILESYSTEM_WRITE, CapabilityReport.unsupported(CapabilityDomain.FILESYSTEM_WRITE,
                        "placeholder")), Optional.empty());
    }

    private static ExecutionSpec spec(List<String> writes, List<String> protectedPaths) {
        return new ExecutionSpec("/bin/true", List.of(), "/", IdentityRef.anonymous(),
                List.of(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(writes))), Map.of(),
                CredentialPosture.none(), new Stdio.Inherit(), protectedPaths);
    }

    @Test
    void aGrantInsideOrAroundAProtectedPathOrLinkedToItOverlaps() throws Exception {
        Path home = Files.createDirectories(dir.resolve("opt/aasm/conf"));
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        Path link = Files.createSymbolicLink(dir.resolve("innocent"), home);
        List<String> prot = List.of(dir.resolve("opt/aasm").toString());

        assertTrue(OwnState.overlap(List.of(scratch.toString(), home.toString()), prot).orElseThrow()
                .startsWith("write grant " + home + " lies inside aasm's own state " + dir.resolve("opt/aasm")), "inside");
        assertTrue(OwnState.overlap(List.of(dir.resolve("opt").toString()), prot).orElseThrow()
                .contains(" covers aasm's own state "), "around");
        assertTrue(OwnState.overlap(List.of(link.toString()), prot).orElseThrow()
                .contains("(resolves to " + home + ") lies inside"), "through a symlink");
        // control: a sibling with a common name prefix is not inside (component-wise comparison)
        Path sibling = Files.createDirectories(dir.resolve("opt/aasm-other"));
        assertEquals(Optional.empty(), OwnState.overlap(List.of(scratch.toString(), sibling.toString()), prot));
    }

    @Test
    void anOverlapMakesFilesystemWriteUnsupportedForThisLaunchOnly() throws Exception {
        Path home = Files.createDirectories(dir.resolve("aasm"));
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        BackendCapabilities caps = available();
        BackendCapabilities refused = OwnState.narrow(caps, spec(List.of(home.resolve("conf").toString()),
                List.of(home.toString())));
        SupportLevel.Unsupported u = assertInstanceOf(SupportLevel.Unsupported.class,
                refused.reports().get(CapabilityDomain.FILESYSTEM_WRITE).support());
        assertTrue(u.reason().contains("lies inside aasm's own state " + home), u.reason());
        assertSame(caps, OwnState.narrow(caps, spec(List.of(scratch.toString()), List.of(home.toString()))), "control");
    }
}
