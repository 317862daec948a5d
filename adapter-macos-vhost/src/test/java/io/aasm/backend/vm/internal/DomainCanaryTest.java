package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.CanaryTargets;
import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guest canaries of syscall, name resolution, credential and resource, each on a real guest. Each is broken
 * on purpose (test-only, through the lowered launch) where the mechanism that enforces the domain sits: the
 * canary gets through, the launch is refused before the program runs (canary_escaped, the domain named, exit 125
 * at the CLI) and the program's marker is never written. Control: the same launch intact, the canary denied by
 * that mechanism, a DECISION record claiming denied_before_execution under the launch's nonce, the marker written.
 */
class DomainCanaryTest {
    /** Broken: the guest installs the baseline but not the policy's program; mkdir(-1) answers EFAULT, not EPERM. */
    @Test
    void syscallCanaryIsRefusedByThePolicyFilter(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        ExecutionSpec spec = spec(out, "mkdir " + out.resolve("made") + " 2>/dev/null; echo ran > "
                + out.resolve("ran"),
                ControlRequirement.strict(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY,
                        List.of("mkdir", "mkdirat"))));
        refused(spec, out, plan(p -> withSeccomp(p, p.seccomp().subList(0, 1))),
                "syscall: the canary called mkdir (number 83 here), which returned EFAULT");

        EvidenceRecord r = control(spec, out, CapabilityDomain.SYSCALL);
        assertTrue(r.detail().contains("the first of mkdir, mkdirat") && r.detail().contains("answered EPERM"), r.detail());
        assertFalse(Files.exists(out.resolve("made")), "the policy let the program's mkdir through");
    }

    /**
     * The guest has no network device, so no plan can give it a route: the broken launch aims the datagram at an
     * address the guest does route (its own loopback), which is what a guest with a network would offer.
     */
    @Test
    void nameCanaryFindsNoRouteOutOfTheGuest(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        TreeMap<String, String> hosts = new TreeMap<>(Map.of("pinned.example", "192.0.2.7"));
        ExecutionSpec spec = spec(out, "echo ran > " + out.resolve("ran"),
                ControlRequirement.strict(CapabilityDomain.NAME_RESOLUTION, new Scope.PinnedHosts(hosts)));
        refused(spec, out, l -> l.withTargets(l.canaryTargets().withResolver(new CanaryTargets.Resolver(0x7F000035,
                53))), "name_resolution: the canary sent a DNS datagram to 127.0.0.53:53 (a route exists)");

        EvidenceRecord r = control(spec, out, CapabilityDomain.NAME_RESOLUTION);
        assertTrue(r.detail().contains("198.18.0.53:53") && r.detail().contains("answered ENETUNREACH"), r.detail());
    }

    /** Broken: no seccomp program at all; keyctl on one's own user keyring then answers its id. */
    @Test
    void keyringCanaryIsRefusedByTheBaselineFilter(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        ExecutionSpec spec = spec(out, "echo ran > " + out.resolve("ran"),
                ControlRequirement.strict(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())));
        refused(spec, out, plan(p -> withSeccomp(p, List.of())), "credential: the canary read the user keyring's id");

        EvidenceRecord r = control(spec, out, CapabilityDomain.CREDENTIAL);
        assertTrue(r.detail().contains("keyctl") && r.detail().contains("answered EPERM"), r.detail());
    }

    /** Broken: the plan claims 64 open files but sets no rlimit; the hard limit found is above it. */
    @Test
    void resourceCanaryCannotRaiseTheHardLimit(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        ExecutionSpec spec = spec(out, "ulimit -Hn > " + out.resolve("ran"),
                ControlRequirement.strict(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(),
                        OptionalLong.empty(), OptionalLong.empty(), OptionalLong.of(64), OptionalLong.empty(),
                        OptionalLong.empty())));
        refused(spec, out, plan(p -> new GuestPlan(p.program(), p.argv(), p.environment(), p.workingDirectory(),
                p.uid(), p.gid(), p.shares(), p.view(), List.of(), p.memoryMax(), p.pidsMax(), p.landlock(), p.rules(),
                p.seccomp())), "resource: the canary found the hard limit of resource 7 above the plan's 64");

        EvidenceRecord r = control(spec, out, CapabilityDomain.RESOURCE, "64\n");
        assertTrue(r.detail().contains("rlimit 7 (64)") && r.detail().contains("answered EPERM"), r.detail());
    }

    private static void refused(ExecutionSpec spec, Path out, UnaryOperator<VmLaunch> broken, String why) {
        LaunchException e = assertThrows(LaunchException.class, () -> Guests.backend().runLowered(spec, broken));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, e.kind());
        assertTrue(e.getMessage().contains("[canary_escaped]"), e.getMessage());
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertFalse(Files.exists(out.resolve("ran")), "the program ran although a canary got through");
    }

    private static EvidenceRecord control(ExecutionSpec spec, Path out, CapabilityDomain d) throws Exception {
        return control(spec, out, d, "ran\n");
    }

    /** The launch intact: it runs, and the domain's canary is one DECISION bound to this launch's nonce. */
    private static EvidenceRecord control(ExecutionSpec spec, Path out, CapabilityDomain d, String marker)
            throws Exception {
        Execution e = Spawned.spawn(Guests.backend(), spec);
        assertEquals(new ExitDisposition.Exited(0), e.await());
        assertEquals(marker, Files.readString(out.resolve("ran")), "the program ran after its canaries");
        List<EvidenceRecord> mine = e.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.DECISION
                && r.domain().equals(java.util.Optional.of(d))).toList();
        assertEquals(1, mine.size(), e.evidence().toString());
        assertEquals(ClaimTerm.DENIED_BEFORE_EXECUTION, mine.get(0).claim());
        assertTrue(mine.get(0).detail().matches("canary [0-9a-f]{16}: .*"), mine.get(0).detail());
        return mine.get(0);
    }

    private static UnaryOperator<VmLaunch> plan(UnaryOperator<GuestPlan> alter) {
        return l -> l.withPlan(alter.apply(l.plan()));
    }

    private static GuestPlan withSeccomp(GuestPlan p, List<byte[]> programs) {
        return new GuestPlan(p.program(), p.argv(), p.environment(), p.workingDirectory(), p.uid(), p.gid(), p.shares(),
                p.view(), p.rlimits(), p.memoryMax(), p.pidsMax(), p.landlock(), p.rules(), programs);
    }

    private static ExecutionSpec spec(Path out, String action, ControlRequirement r) {
        return Guests.grandchild(action, out, Map.of(), List.of(Guests.read(), Guests.write(out.toString()), r))
                .withVerify(true);
    }
}
