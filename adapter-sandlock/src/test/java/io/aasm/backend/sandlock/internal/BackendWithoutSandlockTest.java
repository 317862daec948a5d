package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No sandlock on the lookup path: unavailable with the exact reason, no probes, nothing launched. */
class BackendWithoutSandlockTest {
    @TempDir
    Path dir;

    @Test
    void unavailableWithReasonAndNoProbes() throws Exception {
        SandlockBackend b = new SandlockBackend(Fixtures.settings(Map.of("PATH", dir.toString()), dir.resolve("cache"),
                Path.of("/sys"), false));
        try {
            BackendCapabilities c = b.capabilities();
            assertFalse(c.available());
            assertEquals(new Availability.Unavailable("no `sandlock` executable on PATH; install sandlock 0.8.6 from"
                    + " https://github.com/multikernel/sandlock/releases or set AA_SANDLOCK_BIN"), c.availability());
            assertTrue(c.reports().isEmpty());
            assertFalse(Files.exists(dir.resolve("cache")), "no sandlock means no probes and no probe cache");
            assertFalse(b.plan(Fixtures.spec("/bin/true", List.of(), List.of(), Map.of())).capabilities().available());

            BackendIdentity id = b.identity();
            assertEquals("sandlock", id.id());
            assertEquals("not-found", id.version());
            assertEquals("Apache-2.0", id.provenance().license());
            assertEquals("https://github.com/multikernel/sandlock", id.provenance().source());
            assertFalse(id.provenance().modified());
            assertEquals(ProvenanceStatus.UNVERIFIED, id.provenance().status());
            assertTrue(id.provenance().sha256().isEmpty());

            LaunchException e = assertThrows(LaunchException.class, () -> b.prepare(Fixtures.plan(Fixtures.spec(
                    "/bin/true", List.of(), List.of(Fixtures.req(CapabilityDomain.FILESYSTEM_READ,
                            new Scope.Paths(List.of("/usr")))), Map.of()))));
            assertEquals(LaunchFailureKind.BACKEND_ERROR, e.kind());
            assertTrue(e.getMessage().startsWith("sandlock is unavailable: no `sandlock` executable on PATH"));
        } finally {
            b.deactivate();
        }
    }

    @Test
    void lowerDescribesStepsOrTheGap() {
        SandlockBackend b = new SandlockBackend(Fixtures.settings(Map.of(), dir, Path.of("/sys"), false));
        try {
            assertEquals(List.of("--fs-read=/usr (Landlock read+execute beneath /usr)"), steps(b, Fixtures.req(
                    CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(List.of("/usr")))));
            assertTrue(steps(b, Fixtures.req(CapabilityDomain.NAME_RESOLUTION, new Scope.WholeDomain())).get(0)
                    .startsWith("cannot lower: "));
        } finally {
            b.deactivate();
        }
    }

    private static List<String> steps(SandlockBackend b, io.aasm.ports.policy.ControlRequirement r) {
        return b.plan(Fixtures.spec("/bin/true", List.of(), List.of(r), Map.of())).steps(r);
    }
}
