package io.aasm.backend.container.internal.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A canary only where the claim is made and a correct container certainly denies the attempt. */
class CanaryChoiceTest {
    @TempDir
    Path t;

    private static ControlRequirement req(CapabilityDomain d, Scope s) {
        return ControlRequirement.strict(d, s);
    }

    private Optional<CanaryChoice> choose(List<ControlRequirement> reqs) {
        return CanaryChoice.choose(reqs, t.resolve("canaries"), Map.of("mkdir", 83));
    }

    @Test
    void theWriteCanaryTakesTheMostSpecificReadOnlyFolder() throws Exception {
        Path ro = Files.createDirectories(t.resolve("a/ro"));
        Path w = Files.createDirectories(t.resolve("w"));
        Path holdsWrite = Files.createDirectories(t.resolve("holds/a/long/name"));
        List<ControlRequirement> reqs = List.of(
                req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(List.of("/usr", "/dev", ro.toString(),
                        t.resolve("holds").toString()))),
                req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(w.toString(), holdsWrite.toString()))));
        CanaryChoice c = choose(reqs).orElseThrow();
        assertEquals(EnumSet.of(CanaryKind.FS_READ, CanaryKind.FS_WRITE), EnumSet.copyOf(c.kinds()));
        // not /dev (the container's own writable tmpfs), not the folder holding a write grant
        assertEquals(Optional.of(ro), c.writeDir());
    }

    @Test
    void withoutTheClaimThereIsNoCanary() {
        List<ControlRequirement> reqs = List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()),
                req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir"))));
        assertEquals(EnumSet.of(CanaryKind.EGRESS, CanaryKind.SYSCALL),
                EnumSet.copyOf(choose(reqs).orElseThrow().kinds()));
        List<ControlRequirement> granted = List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "127.0.0.1", 80, 80)))));
        assertEquals(Optional.empty(), choose(granted), "an egress grant is not this backend's to prevent");
        List<ControlRequirement> readsCoverRoot = List.of(req(CapabilityDomain.FILESYSTEM_READ,
                new Scope.Paths(List.of(t.toString()))));
        assertEquals(Optional.empty(), choose(readsCoverRoot), "a grant over the canary folder spoils it");
    }

    /** Processes none: the one denial a correct container certainly makes; a ceiling has no canary. */
    @Test
    void processCreationIsCanariedOnlyWhenDeniedOutright() {
        List<ControlRequirement> none = List.of(req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain()),
                req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir"))));
        assertEquals(EnumSet.of(CanaryKind.PROCESS, CanaryKind.SYSCALL),
                EnumSet.copyOf(choose(none).orElseThrow().kinds()), "processes none: every kind, the init in place");
        List<ControlRequirement> ceiling = List.of(req(CapabilityDomain.PROCESS_CREATION,
                new Scope.ProcessCeiling(4)));
        assertEquals(Optional.empty(), choose(ceiling), "a ceiling is reached only by creating that many processes");
    }
}
