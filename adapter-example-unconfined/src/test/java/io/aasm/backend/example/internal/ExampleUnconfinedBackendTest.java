package io.aasm.backend.example.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.LaunchPosture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExampleUnconfinedBackendTest {
    private final ExampleUnconfinedBackend backend = new ExampleUnconfinedBackend();

    @Test
    void everyDomainIsReportedUnsupportedAndNoneCanPrevent() {
        BackendCapabilities caps = backend.capabilities();
        assertTrue(caps.available());
        for (CapabilityDomain d : CapabilityDomain.values()) {
            var report = caps.reportFor(d).orElseThrow();
            assertInstanceOf(SupportLevel.Unsupported.class, report.support(), d.token());
            assertFalse(report.canPrevent(), d.token());
        }
        assertTrue(caps.measuredAt().isEmpty(), "a declaration is not a measurement");
    }

    @Test
    void runsTheProgramForRealWithOnlyTheGivenEnvironment(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("env.txt");
        Execution h = start(dir, Map.of("ONLY", "this"), "/bin/sh", "-c", "env > " + out + "; exit 7");
        ExitDisposition d = h.await();
        assertEquals(new ExitDisposition.Exited(7), d);
        List<String> env = Files.readAllLines(out);
        assertTrue(env.contains("ONLY=this"), env.toString());
        assertFalse(env.stream().anyMatch(l -> l.startsWith("HOME=")), "caller environment leaked: " + env);
        assertEquals(d, h.await(), "await is idempotent");
    }

    @Test
    void gracefulTerminationDeliversSigtermToTheProgram(@TempDir Path dir) throws Exception {
        Path marker = dir.resolve("got");
        Path ready = dir.resolve("ready");
        Execution h = start(dir, Map.of(), "/bin/sh", "-c",
                "trap 'echo got > " + marker + "; exit 3' TERM; : > " + ready + "; while :; do sleep 0.05; done");
        while (!Files.exists(ready)) {
            Thread.sleep(20);
        }
        assertTrue(h.terminate(TerminationRequest.GRACEFUL));
        assertEquals(new ExitDisposition.Exited(3), h.await());
        assertEquals("got", Files.readString(marker).strip());
    }

    @Test
    void refusesDescriptorStdioItCannotHandOver(@TempDir Path dir) {
        EnforcementPlan plan = plan(dir, Map.of(), new Stdio.Descriptors(0, 1, 2), "/bin/true");
        assertThrows(LaunchException.class, () -> backend.prepare(plan));
    }

    private Execution start(Path dir, Map<String, String> env, String program, String... args) throws Exception {
        return backend.prepare(plan(dir, env, new Stdio.Inherit(), program, args)).spawn();
    }

    private EnforcementPlan plan(Path dir, Map<String, String> env, Stdio stdio, String program, String... args) {
        ExecutionSpec spec = new ExecutionSpec(program, List.of(args), dir.toString(), IdentityRef.anonymous(), List.of(),
                env, CredentialPosture.none(), stdio);
        return new EnforcementPlan(backend.identity(), spec, List.of(), LaunchPosture.DEGRADED, backend.plan(spec));
    }
}
