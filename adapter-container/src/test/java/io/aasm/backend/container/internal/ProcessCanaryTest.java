package io.aasm.backend.container.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.backend.container.internal.lower.Lowering;
import io.aasm.backend.container.internal.runtime.ContainerBackendPlan;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process-creation canary on the real engine. With processes stated as none no init forks the program,
 * so aasm's init runs with -x: it makes its canaries (clone, fork and vfork, which the launch's seccomp
 * profile must refuse with EPERM) and then becomes the program by execve, which is therefore still the
 * container's pid 1. The broken container is a test-only profile that allows process creation: its canary
 * gets through and the launch ends 125 before the program; the same profile with canaries off shows the
 * hole is real (the program's subshell runs), and the intact profile with canaries off is the control for
 * the claim (pid 1 all the same, no decision record).
 */
class ProcessCanaryTest {
    /** Writes its pid, then tries a subshell (a fork): its file exists only where processes can be made. */
    private static final String PROGRAM = "cd %s && echo $$ > pid; ( echo forked > forked ); echo after > after";
    private static ContainerBackend off;

    @TempDir
    Path t;

    @AfterAll
    static void stop() {
        if (off != null) {
            off.deactivate();
        }
    }

    private record Ran(ExitDisposition exit, EnforcementEvidence evidence, String err) {
        boolean decided(CapabilityDomain d) {
            return evidence.records().stream().anyMatch(r -> r.kind() == EvidenceKind.DECISION
                    && r.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION && r.domain().equals(Optional.of(d)));
        }
    }

    private Ran run(ContainerBackend b, UnaryOperator<ContainerPlan> tamper) throws Exception {
        Files.createDirectories(t.resolve("w"));
        Path err = t.resolve("err-" + System.nanoTime());
        int i = Fds.readFrom(Files.write(t.resolve("in"), new byte[0]));
        int o = Fds.writeTo(t.resolve("out"));
        int e = Fds.writeTo(err);
        try {
            // reads stated: the container's pid namespace is its own, so pid 1 is the container's first process
            ExecutionSpec spec = new ExecutionSpec("/bin/sh", List.of("-c", PROGRAM.formatted(t.resolve("w"))),
                    t.resolve("w").toString(),
                    IdentityRef.anonymous(), List.of(Harness.read(), Harness.write(t.resolve("w").toString()),
                    Harness.req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain())),
                    Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(), new Stdio.Descriptors(i, o, e));
            EnforcementPlan plan = Harness.plan(b, spec);
            ContainerBackendPlan own = (ContainerBackendPlan) plan.backendPlan();
            Lowering.Lowered l = (Lowering.Lowered) own.lowering().orElseThrow();
            assertFalse(l.plan().init(), "processes none: no init forks the program");
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

    private void clean() throws Exception {
        for (String f : List.of("pid", "forked", "after")) {
            Files.deleteIfExists(t.resolve("w").resolve(f));
        }
    }

    @Test
    void theIntactProfileDeniesItAndTheProgramIsStillPidOne() throws Exception {
        Harness h = Harness.shared();
        off = new ContainerBackend(Settings.defaults().withProbeCacheDir(Harness.cacheDir()).withCanaries(false));
        Ran control = run(off, p -> p);
        assertEquals("1\n", Files.readString(t.resolve("w/pid")), "control: the program is pid 1 without the init");
        assertFalse(control.decided(CapabilityDomain.PROCESS_CREATION), "control without canaries: no decision");
        assertFalse(Files.exists(t.resolve("w/forked")), "control: the subshell could not be forked");
        clean();

        Ran ran = run(h.backend, p -> p);
        assertNotEquals(new ExitDisposition.Exited(125), ran.exit(), ran.err() + ran.evidence());
        assertEquals("1\n", Files.readString(t.resolve("w/pid")), "the init became the program: still pid 1");
        assertFalse(Files.exists(t.resolve("w/forked")), "the program could not fork either");
        assertTrue(ran.decided(CapabilityDomain.PROCESS_CREATION), ran.evidence().toString());
        assertTrue(ran.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.DECISION).allMatch(r -> r
                .detail().contains("before it became the program by execve")), "every record says where: in place");
        assertFalse(ran.err().contains("aasm-canary"), "the init's record is stripped: " + ran.err());
        assertEquals(control.err(), ran.err(), "the caller sees the program's bytes only, as without canaries");
    }

    @Test
    void aProfileThatAllowsForkingRefusesTheLaunchBeforeTheProgram() throws Exception {
        Harness h = Harness.shared();
        ContainerBackend noCanaries = new ContainerBackend(Settings.defaults().withProbeCacheDir(Harness.cacheDir())
                .withCanaries(false));
        try {
            run(noCanaries, ProcessCanaryTest::forking);
            assertEquals("forked\n", Files.readString(t.resolve("w/forked")), "the broken profile is a real hole");
        } finally {
            noCanaries.deactivate();
        }
        clean();

        Ran ran = run(h.backend, ProcessCanaryTest::forking);
        assertEquals(new ExitDisposition.Exited(125), ran.exit(), ran.err() + ran.evidence());
        assertFalse(Files.exists(t.resolve("w/pid")), "the program must not run after the canary got through");
        assertFalse(ran.decided(CapabilityDomain.PROCESS_CREATION), "no decision claimed for the broken domain");
        assertTrue(ran.evidence().records().stream().anyMatch(r -> r.domain().equals(Optional.of(
                CapabilityDomain.PROCESS_CREATION)) && r.detail().contains("was NOT denied")), ran.evidence().toString());
        assertTrue(ran.err().contains("canary process_creation was NOT denied"), ran.err());
    }

    /** The test-only broken profile: fork, vfork and every clone allowed, as when processes are granted. */
    private static ContainerPlan forking(ContainerPlan p) {
        String profile = p.seccompProfile().replaceFirst("\"names\":\\[", "\"names\":[\"fork\",\"vfork\",\"clone\",");
        return new ContainerPlan(p.program(), p.argv(), p.workingDirectory(), p.environment(), p.mounts(),
                p.namespaces(), p.init(), profile, p.limits(), p.wallClockSeconds(), p.generatedFiles(), p.installed());
    }
}
