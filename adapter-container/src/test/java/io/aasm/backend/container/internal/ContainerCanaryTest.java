package io.aasm.backend.container.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.backend.container.internal.lower.Lowering;
import io.aasm.backend.container.internal.lower.Mount;
import io.aasm.backend.container.internal.runtime.ContainerBackendPlan;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Canaries on the real engine: the container's init, inside every part of the container's boundary, makes
 * one forbidden attempt per domain it can test before it forks the program. With a correct container each
 * becomes a DECISION record, the program runs, and the init's record never reaches the caller's stderr
 * (the relay strips it); the control with canaries off has none. With a deliberately broken container — a
 * test-only plan that leaves the domain's rule out, handed in as the backend's own — the launch ends 125
 * and the program never runs.
 */
class ContainerCanaryTest {
    private static final Set<CapabilityDomain> CANARIED = EnumSet.of(CapabilityDomain.FILESYSTEM_READ,
            CapabilityDomain.FILESYSTEM_WRITE, CapabilityDomain.NETWORK_EGRESS, CapabilityDomain.SYSCALL,
            CapabilityDomain.IPC, CapabilityDomain.NAME_RESOLUTION, CapabilityDomain.CREDENTIAL,
            CapabilityDomain.RESOURCE);
    private static ContainerBackend off;

    @TempDir
    Path t;

    @AfterAll
    static void stop() {
        if (off != null) {
            off.deactivate();
        }
    }

    private ExecutionSpec spec(Stdio stdio) {
        // t/ro: the most specific read grant, so the write canary tries its read-only folder (not a system one)
        List<ControlRequirement> reqs = new ArrayList<>(List.of(Harness.read(t.resolve("ro").toString()),
                Harness.write(t.resolve("w").toString()),
                Harness.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()),
                Harness.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir"))),
                Harness.req(CapabilityDomain.IPC, new Scope.WholeDomain()),
                Harness.req(CapabilityDomain.NAME_RESOLUTION, new Scope.WholeDomain()),
                Harness.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("PATH"))),
                Harness.req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(),
                        OptionalLong.empty(), OptionalLong.of(256), OptionalLong.empty(), OptionalLong.empty()))));
        return new ExecutionSpec("/bin/sh", List.of("-c", "echo ran > " + t.resolve("w/marker") + "; echo to-err >&2"),
                t.toString(), IdentityRef.anonymous(), reqs, Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(),
                stdio);
    }

    private record Ran(ExitDisposition exit, EnforcementEvidence evidence, String err) {
        Set<CapabilityDomain> decided() {
            return evidence.records().stream().filter(r -> r.kind() == EvidenceKind.DECISION
                    && r.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION).map(r -> r.domain().orElseThrow())
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(CapabilityDomain.class)));
        }
    }

    private Ran run(ContainerBackend b, UnaryOperator<ContainerPlan> tamper) throws Exception {
        Files.createDirectories(t.resolve("w"));
        Files.createDirectories(t.resolve("ro"));
        Path err = t.resolve("err-" + System.nanoTime());
        int i = Fds.readFrom(Files.write(t.resolve("in"), new byte[0]));
        int o = Fds.writeTo(t.resolve("out"));
        int e = Fds.writeTo(err);
        try {
            ExecutionSpec spec = spec(new Stdio.Descriptors(i, o, e));
            EnforcementPlan plan = Harness.plan(b, spec);
            ContainerBackendPlan own = (ContainerBackendPlan) plan.backendPlan();
            Lowering.Lowered l = (Lowering.Lowered) own.lowering().orElseThrow();
            ContainerBackendPlan changed = new ContainerBackendPlan(spec, own.capabilities(), Optional.of(
                    new Lowering.Lowered(tamper.apply(l.plan()), l.general())), own.plannedDescriptors(),
                    own.plannedAuthority());
            try (var prepared = b.prepare(new EnforcementPlan(plan.backend(), spec, plan.planned(), plan.posture(),
                    changed))) {
                Execution x = prepared.spawn();
                ExitDisposition d = x.await();
                return new Ran(d, x.evidence(), Files.readString(err));
            }
        } finally {
            Fds.C.close(i);
            Fds.C.close(o);
            Fds.C.close(e);
        }
    }

    @Test
    void everyTestableDomainIsDeniedBeforeTheProgramRuns() throws Exception {
        Harness h = Harness.shared();
        off = new ContainerBackend(Settings.defaults().withProbeCacheDir(Harness.cacheDir()).withCanaries(false));
        Ran control = run(off, p -> p);
        assertEquals(new ExitDisposition.Exited(0), control.exit(), control.evidence().toString());
        assertEquals(Set.of(), control.decided(), "control without canaries: no decision record");
        Files.delete(t.resolve("w/marker"));

        Ran ran = run(h.backend, p -> p);
        assertEquals(new ExitDisposition.Exited(0), ran.exit(), ran.evidence().toString());
        assertEquals("ran\n", Files.readString(t.resolve("w/marker")), "the program ran after the canaries");
        assertEquals(CANARIED, ran.decided(), ran.evidence().toString());
        assertEquals("to-err\n", ran.err(), "the init's record is stripped: the caller sees the program's bytes only");
        try (var left = Files.list(t.resolve("ro"))) {
            assertEquals(List.of(), left.toList(), "the write canary created nothing in the read-only folder");
        }
    }

    /** For each kind, the container's rule is left out by a test-only plan: the canary gets through. */
    @ParameterizedTest
    @EnumSource(names = {"FILESYSTEM_READ", "FILESYSTEM_WRITE", "NETWORK_EGRESS", "SYSCALL", "IPC",
            "NAME_RESOLUTION", "CREDENTIAL", "RESOURCE"})
    void aBrokenContainerRefusesTheLaunchBeforeTheProgram(CapabilityDomain broken) throws Exception {
        Harness h = Harness.shared();
        Ran ran = run(h.backend, p -> broken(p, broken));
        assertEquals(new ExitDisposition.Exited(125), ran.exit(), broken + ": " + ran.evidence());
        assertFalse(Files.exists(t.resolve("w/marker")), "the program must not run after a canary got through");
        assertFalse(ran.decided().contains(broken), "no decision claimed for the broken domain");
        assertTrue(ran.evidence().records().stream().anyMatch(r -> r.domain().equals(Optional.of(broken))
                && r.detail().contains("was NOT denied")), "the evidence names the domain: " + ran.evidence());
        // The host's network lets the egress canary through as well, and the init names the first it met.
        String named = broken == CapabilityDomain.NAME_RESOLUTION ? CapabilityDomain.NETWORK_EGRESS.token()
                : broken.token();
        assertTrue(ran.err().contains("canary " + named + " was NOT denied"), ran.err());
        try (var left = Files.list(t.resolve("ro"))) {
            assertEquals(List.of(), left.toList(), "a file the broken write canary made is removed after the run");
        }
    }

    private ContainerPlan broken(ContainerPlan p, CapabilityDomain d) {
        List<Mount> mounts = new ArrayList<>(p.mounts());
        boolean hostNet = p.namespaces().hostNetwork();
        boolean hostPid = p.namespaces().hostPid();
        String profile = p.seccompProfile();
        ContainerPlan.Limits limits = p.limits();
        switch (d) {
            case FILESYSTEM_READ -> {
                Path root = Harness.cacheDir().resolveSibling("container-canaries");
                mounts.add(new Mount.Bind(root.toString(), root.toString(), true));
            }
            case FILESYSTEM_WRITE -> mounts.replaceAll(m -> m instanceof Mount.Bind b
                    && b.target().equals(t.resolve("ro").toString()) ? new Mount.Bind(b.source(), b.target(), false) : m);
            case NETWORK_EGRESS -> hostNet = true;
            case SYSCALL -> profile = profile.replaceFirst("\"names\":\\[", "\"names\":[\"mkdir\",");
            case IPC -> hostPid = true;
            // the host's network: the datagram to 198.18.0.53 leaves through its default route
            case NAME_RESOLUTION -> hostNet = true;
            case CREDENTIAL -> profile = profile.replace("\"keyctl\",", "").replace(",\"keyctl\"", "")
                    .replaceFirst("\"names\":\\[", "\"names\":[\"keyctl\",");
            case RESOURCE -> limits = new ContainerPlan.Limits(limits.memoryBytes(), limits.pids(), Map.of());
            default -> throw new IllegalArgumentException(d.token());
        }
        return new ContainerPlan(p.program(), p.argv(), p.workingDirectory(), p.environment(), mounts,
                new ContainerPlan.Namespaces(hostNet, hostPid, p.namespaces().hostIpc()), p.init(), profile, limits,
                p.wallClockSeconds(), p.generatedFiles(), p.installed());
    }
}
