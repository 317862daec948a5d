package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** prepare() refusals, decided before anything runs (the stand-in only answers discovery here). */
class PrepareWithStandInTest {
    @TempDir
    Path dir;

    private SandlockBackend b;

    @BeforeEach
    void start() throws Exception {
        b = new SandlockBackend(Fixtures.settings(Map.of("AA_SANDLOCK_BIN", Fixtures.standIn(dir).toString()),
                dir.resolve("cache"), Path.of("/sys"), false));
    }

    @AfterEach
    void stop() {
        b.deactivate();
    }

    private LaunchException refused(ExecutionSpec spec) {
        return assertThrows(LaunchException.class, () -> b.prepare(Fixtures.plan(spec)));
    }

    @Test
    void missingGrantPathIsNamedBeforeLaunch() {
        LaunchException e = refused(Fixtures.spec("/bin/true", List.of(), List.of(Fixtures.req(
                CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(List.of("/usr", "/does/not/exist")))), Map.of()));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, e.kind());
        assertTrue(e.getMessage().startsWith("filesystem grant /does/not/exist does not exist"));
    }

    @Test
    void planClaimingAnInexpressibleScopeIsRefused() {
        LaunchException e = refused(Fixtures.spec("/bin/true", List.of(), List.of(Fixtures.req(
                CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW, List.of("read")))), Map.of()));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, e.kind());
        assertTrue(e.getMessage().contains("takes only deny lists"));
    }

    @Test
    void undelegatedEnvironmentIsRefused() {
        LaunchException e = refused(Fixtures.spec("/bin/true", List.of(), List.of(), Map.of("HOME", "/root")));
        assertTrue(e.getMessage().contains("names that were not delegated: [HOME]"));
    }

    @Test
    void planForAnotherBackendIsRefused() {
        ExecutionSpec spec = Fixtures.spec("/bin/true", List.of(), List.of(), Map.of());
        var plan = Fixtures.plan(spec);
        var other = new io.aasm.ports.backend.EnforcementPlan(new io.aasm.ports.backend.BackendIdentity("aasm-native",
                "1", plan.backend().provenance()), spec, plan.planned(), plan.posture(), plan.backendPlan());
        assertThrows(LaunchException.class, () -> b.prepare(other));
    }
}
