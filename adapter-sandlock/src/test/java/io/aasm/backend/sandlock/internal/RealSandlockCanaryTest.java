package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Canaries through a REAL sandlock: the shim, inside sandlock's sandbox and before the program, makes one
 * forbidden attempt per domain the plan prevents. With a correct boundary each becomes a DECISION record
 * and the program runs (its marker file appears); the control without canaries has no DECISION record.
 * With a deliberately broken boundary — a test-only lowering that omits the domain's rule, handed in as
 * the plan's lowering — the launch is refused with 125 and the program never runs (no marker).
 */
class RealSandlockCanaryTest {
    private static final Set<CapabilityDomain> CANARIED = EnumSet.of(CapabilityDomain.FILESYSTEM_READ,
            CapabilityDomain.FILESYSTEM_WRITE, CapabilityDomain.NETWORK_EGRESS, CapabilityDomain.SYSCALL,
            CapabilityDomain.PROCESS_CREATION, CapabilityDomain.IPC, CapabilityDomain.CREDENTIAL,
            CapabilityDomain.RESOURCE);

    @TempDir
    Path dir;

    private SandlockBackend backend;

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    private List<ControlRequirement> everyDomain(Path writable) {
        List<ControlRequirement> reqs = new ArrayList<>();
        reqs.add(Fixtures.reads());
        reqs.add(Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(writable.toString()))));
        reqs.add(Fixtures.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()));
        reqs.add(Fixtures.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir"))));
        reqs.add(Fixtures.req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain()));
        reqs.add(Fixtures.req(CapabilityDomain.IPC, new Scope.WholeDomain()));
        reqs.add(Fixtures.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())));
        reqs.add(Fixtures.req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.of(256), OptionalLong.empty(), OptionalLong.empty())));
        return reqs;
    }

    /** A builtin only: under a ceiling of one process the shell must not fork. */
    private ExecutionSpec spec(Path writable) {
        return Fixtures.spec("/bin/sh", List.of("-c", "echo ran > " + writable.resolve("marker")),
                everyDomain(writable), Map.of());
    }

    private record Ran(int status, EnforcementEvidence evidence) {
        Set<CapabilityDomain> decided() {
            return evidence.records().stream().filter(r -> r.kind() == EvidenceKind.DECISION
                    && r.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION).map(r -> r.domain().orElseThrow())
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(CapabilityDomain.class)));
        }
    }

    private Ran run(EnforcementPlan plan) throws Exception {
        Execution h = backend.prepare(plan).spawn();
        int status = h.await().shellStatus();
        return new Ran(status, h.evidence());
    }

    @Test
    void everyPreventedDomainIsDeniedBeforeTheProgramRuns() throws Exception {
        Path w = Files.createDirectories(dir.resolve("w"));
        backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"), false);
        Ran control = run(Fixtures.plan(spec(w)));
        assertEquals(0, control.status());
        assertTrue(Files.exists(w.resolve("marker")), "control: the program ran");
        assertEquals(Set.of(), control.decided(), "control without canaries: no decision record");
        backend.deactivate();

        Files.delete(w.resolve("marker"));
        backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"), true);
        Ran ran = run(Fixtures.plan(spec(w)));
        assertEquals(0, ran.status(), "a correct boundary denies every canary and the program runs: " + ran.evidence());
        assertEquals("ran\n", Files.readString(w.resolve("marker")), "the program ran after its canaries");
        assertEquals(CANARIED, ran.decided(), ran.evidence().toString());
        String nonce = ran.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.DECISION).findFirst()
                .orElseThrow().detail().replaceAll("^canary ([0-9a-f]{16}):.*$", "$1");
        assertTrue(ran.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.DECISION)
                .allMatch(r -> r.detail().startsWith("canary " + nonce + ": ")), "every record bound to one nonce");
        assertTrue(ran.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.DECISION)
                .map(EvidenceRecord::detail).filter(d -> d.contains("listener on"))
                .allMatch(d -> d.matches(".*listener on 127\\.0\\.0\\.1:[1-9][0-9]* .*")),
                "the egress record names the port it was refused on (not the closed listener's 0)");
        try (var left = Files.list(canaryRoot().resolve("shared"))) {
            assertEquals(List.of("read"), left.map(p -> p.getFileName().toString()).toList(),
                    "the launch's FIFO and write name are gone after the run; the shared read file stays");
        }
    }

    /** With an egress rule, sandlock's mediation answers ECONNREFUSED: still a denial of the canary's connect. */
    @Test
    void egressWithARuleIsDeniedToo() throws Exception {
        Path w = Files.createDirectories(dir.resolve("w"));
        backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"), true);
        List<ControlRequirement> reqs = List.of(Fixtures.reads(), Fixtures.req(CapabilityDomain.NETWORK_EGRESS,
                new Scope.Egress(List.of(new io.aasm.ports.policy.EgressGrant(io.aasm.ports.policy.Protocol.TCP,
                        "127.0.0.1", 9, 9)))));
        ExecutionSpec spec = Fixtures.spec("/bin/sh", List.of("-c", "true"), reqs, Map.of());
        Ran ran = run(Fixtures.plan(spec));
        assertEquals(0, ran.status(), ran.evidence().toString());
        assertEquals(Set.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.NETWORK_EGRESS), ran.decided(),
                ran.evidence().toString());
    }

    /** For each kind, the domain's rule is omitted by a test-only lowering: the canary gets through. */
    @ParameterizedTest
    @EnumSource(names = {"FILESYSTEM_READ", "FILESYSTEM_WRITE", "NETWORK_EGRESS", "SYSCALL", "PROCESS_CREATION", "IPC",
            "RESOURCE"})
    void aBrokenBoundaryRefusesTheLaunchBeforeTheProgram(CapabilityDomain broken) throws Exception {
        Path w = Files.createDirectories(dir.resolve("w"));
        backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"), true);
        Files.createDirectories(canaryRoot());
        ExecutionSpec spec = spec(w);
        EnforcementPlan plan = Fixtures.plan(spec);
        SandlockPlan own = (SandlockPlan) plan.backendPlan();
        SandlockPlan tampered = new SandlockPlan(own.capabilities(), Map.of(broken, brokenLowering(broken, w)),
                own.descriptors());
        Ran ran = run(new EnforcementPlan(plan.backend(), spec, plan.planned(), plan.posture(), tampered));
        assertEquals(125, ran.status(), broken + ": " + ran.evidence());
        assertFalse(Files.exists(w.resolve("marker")), "the program must not run after a canary got through");
        assertFalse(ran.decided().contains(broken), "no decision claimed for the broken domain");
        assertTrue(ran.evidence().records().stream().anyMatch(r -> r.domain().equals(java.util.Optional.of(broken))
                && r.detail().contains("was NOT denied")), "the evidence names the domain: " + ran.evidence());
    }

    private Path canaryRoot() {
        return Path.of("target", "real-sandlock-probe-cache", "sandlock-canaries").toAbsolutePath();
    }

    /** The domain's lowering with its rule left out (or the canary's object granted). */
    private DomainLowering brokenLowering(CapabilityDomain d, Path w) {
        List<String> flags = switch (d) {
            case FILESYSTEM_READ -> Stream.concat(Fixtures.SYSTEM.stream().map(p -> "--fs-read=" + p),
                    Stream.of("--fs-read=" + canaryRoot())).toList();
            case FILESYSTEM_WRITE -> List.of("--fs-write=" + w, "--fs-write=" + canaryRoot());
            case NETWORK_EGRESS -> List.of("--net-allow=*");
            case SYSCALL -> List.of();
            case PROCESS_CREATION -> List.of("--max-processes=64");
            case IPC -> List.of("--disable=signal-scope");
            case RESOURCE -> List.of(); // no --max-open-files: the inherited hard limit stays above 256
            default -> throw new IllegalArgumentException(d.token());
        };
        return new DomainLowering.Flags(flags, List.of("test-only: " + d.token() + "'s rule left out"));
    }
}
