package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Canaries in the guest: right before execve, inside the boundary, the agent attempts one forbidden action per
 * prevented domain it has a canary for; each denial is evidence bound to the launch's nonce, and a canary that
 * gets through (a boundary broken on purpose) refuses the launch before the program runs.
 */
class CanaryTest {
    @Test
    void eachCanaryIsDeniedAndBecomesADecisionBoundToTheLaunch(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        ExecutionSpec spec = spec(out);
        Execution e = Spawned.spawn(Guests.backend(), spec);
        assertEquals(new ExitDisposition.Exited(0), e.await());
        assertEquals("ran\n", Files.readString(out.resolve("ran")), "the program ran after its canaries");
        List<EvidenceRecord> decisions = e.evidence().records().stream()
                .filter(r -> r.kind() == EvidenceKind.DECISION).toList();
        Set<CapabilityDomain> denied = decisions.stream().filter(r -> r.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION)
                .map(r -> r.domain().orElseThrow()).collect(Collectors.toCollection(() -> EnumSet.noneOf(
                        CapabilityDomain.class)));
        assertEquals(EnumSet.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.FILESYSTEM_WRITE,
                CapabilityDomain.NETWORK_EGRESS), denied, decisions.toString());
        String nonce = decisions.get(0).detail().split(" ")[1].replace(":", "");
        assertTrue(nonce.matches("[0-9a-f]{16}"), decisions.toString());
        assertTrue(decisions.stream().allMatch(r -> r.detail().startsWith("canary " + nonce + ":")), decisions.toString());

        // A second launch carries a nonce of its own.
        Execution again = Spawned.spawn(Guests.backend(), spec(out));
        again.await();
        assertTrue(again.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.DECISION)
                .noneMatch(r -> r.detail().contains(nonce)), "a nonce was reused");
    }

    @Test
    void aCanaryThatGetsThroughABrokenBoundaryRefusesTheLaunch(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        // Broken on purpose: the plan still claims to prevent reads, but the guest installs no Landlock.
        LaunchException refused = assertThrows(LaunchException.class,
                () -> Guests.backend().runDirect(spec(out), CanaryTest::withoutLandlock));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, refused.kind());
        assertTrue(refused.getMessage().contains("[canary_escaped]"), refused.getMessage());
        assertTrue(refused.getMessage().contains("filesystem_read: the canary opened the view's root"),
                refused.getMessage());
        assertFalse(Files.exists(out.resolve("ran")), "the program ran although a canary got through");

        // Control: the same launch with the boundary intact runs the program.
        assertEquals(new ExitDisposition.Exited(0), Guests.backend().runDirect(spec(out), p -> p));
        assertEquals("ran\n", Files.readString(out.resolve("ran")));
    }

    /**
     * In a guest the canaries cost more than the per-launch budget, so they run only under {@code --verify}.
     * Without it the same broken boundary is not noticed before the program (nothing tried it) and no claim
     * rises; with it (the control, as above) the launch is refused.
     */
    @Test
    void withoutVerifyTheGuestMakesNoAttempt(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        ExecutionSpec plain = spec(out).withVerify(false);
        assertEquals(new ExitDisposition.Exited(0), Guests.backend().runDirect(plain, CanaryTest::withoutLandlock));
        assertEquals("ran\n", Files.readString(out.resolve("ran")), "no canary stood before the program");
        Execution e = Spawned.spawn(Guests.backend(), plain);
        assertEquals(new ExitDisposition.Exited(0), e.await());
        assertTrue(e.evidence().records().stream().noneMatch(r -> r.kind() == EvidenceKind.DECISION),
                "a claim rose without an attempt: " + e.evidence());
        Files.delete(out.resolve("ran"));
        assertThrows(LaunchException.class, () -> Guests.backend().runDirect(spec(out), CanaryTest::withoutLandlock),
                "control: with --verify the broken boundary refuses the launch");
        assertFalse(Files.exists(out.resolve("ran")));
    }

    /**
     * Process creation denied outright: the guest's seccomp program answers the canary's fork with EPERM.
     * Broken on purpose: the plan still claims it, but the guest installs no seccomp program; the fork
     * succeeds and the launch is refused before the program (a shell builtin writing a marker) runs.
     */
    @Test
    void aForkIsDeniedAndAGuestWithoutItsFilterRefusesTheLaunch(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        LaunchException refused = assertThrows(LaunchException.class,
                () -> Guests.backend().runDirect(noFork(out), CanaryTest::withoutSeccomp));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, refused.kind());
        assertTrue(refused.getMessage().contains("process_creation: the canary created a process"),
                refused.getMessage());
        assertFalse(Files.exists(out.resolve("ran")), "the program ran although a canary got through");

        // Control: the boundary intact, the fork is denied, a DECISION record, and the program runs.
        Execution e = Spawned.spawn(Guests.backend(), noFork(out));
        assertEquals(new ExitDisposition.Exited(0), e.await());
        assertEquals("ran\n", Files.readString(out.resolve("ran")));
        assertTrue(e.evidence().records().stream().anyMatch(r -> r.kind() == EvidenceKind.DECISION
                && r.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION
                && r.domain().equals(java.util.Optional.of(CapabilityDomain.PROCESS_CREATION))), e.evidence().toString());
    }

    /** A shell builtin writes the marker: no process is created after the canary. */
    private static ExecutionSpec noFork(Path out) {
        return new ExecutionSpec("/bin/sh", List.of("-c", "echo ran > " + out.resolve("ran")), out.toString(),
                io.aasm.ports.backend.IdentityRef.anonymous(), List.of(Guests.read(), Guests.write(out.toString()),
                ControlRequirement.strict(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain())), Map.of(),
                io.aasm.ports.backend.CredentialPosture.none(), new io.aasm.ports.backend.Stdio.Inherit())
                .withVerify(true);
    }

    private static GuestPlan withoutSeccomp(GuestPlan p) {
        return new GuestPlan(p.program(), p.argv(), p.environment(), p.workingDirectory(), p.uid(), p.gid(), p.shares(),
                p.view(), p.rlimits(), p.memoryMax(), p.pidsMax(), p.landlock(), p.rules(), List.of());
    }

    private static GuestPlan withoutLandlock(GuestPlan p) {
        return new GuestPlan(p.program(), p.argv(), p.environment(), p.workingDirectory(), p.uid(), p.gid(), p.shares(),
                p.view(), p.rlimits(), p.memoryMax(), p.pidsMax(), false, p.rules(), p.seccomp());
    }

    private static ExecutionSpec spec(Path out) {
        return Guests.grandchild("echo ran > " + out.resolve("ran"), out, Map.of(), List.of(Guests.read(),
                Guests.write(out.toString()), ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS,
                        new Scope.Egress(List.of())))).withVerify(true);
    }
}
