package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the issue found reported as "achieved nothing" although sandlock did it: IPC scoping and the
 * memory ceiling now rest on controlled pairs through the real binary (so a degrade posture keeps
 * prevention), and a memory kill is reported as signal 9 with a record saying which ceiling was set.
 */
class RealSandlockIpcAndMemoryTest {
    @TempDir
    Path dir;

    private SandlockBackend backend;

    @BeforeEach
    void start() {
        backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"));
    }

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    private static Scope.Limits memory(long bytes) {
        return new Scope.Limits(OptionalLong.of(bytes), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.empty());
    }

    @Test
    void ipcAndMemoryCanPreventBecauseTheirPairsObservedADenial() {
        for (ControlRequirement r : List.of(Fixtures.req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of())),
                Fixtures.req(CapabilityDomain.RESOURCE, memory(64L << 20)))) {
            var report = backend.plan(Fixtures.spec("/bin/true", List.of(), List.of(r), Map.of()))
                    .capabilities().reportFor(r.domain()).orElseThrow();
            assertTrue(report.canPrevent(), r.domain().token() + ": " + report.prerequisites());
        }
    }

    /** The program itself (dd, exec'd) allocates a 64 MiB buffer, fills it and writes it to a file. */
    @Test
    void aMemoryKillIsSignalNineWithTheCeilingOnRecord() throws Exception {
        Path out = dir.resolve("out");
        String script = "exec dd if=/dev/zero of=" + out + " bs=64M count=1 2>/dev/null";
        List<ControlRequirement> base = List.of(Fixtures.reads("/dev/zero"), Fixtures.req(
                CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(dir.toString(), "/dev/null"))));
        Execution control = launch(script, base, memory(512L << 20));
        assertEquals(new ExitDisposition.Exited(0), control.await());
        assertEquals(64L << 20, Files.size(out), "control: 64 MiB fit under a 512 MiB ceiling");
        Files.delete(out);
        Execution h = launch(script, base, memory(16L << 20));
        ExitDisposition d = h.await();
        assertTrue(!Files.exists(out) || Files.size(out) == 0, "the allocation passed a 16 MiB ceiling");
        assertEquals(new ExitDisposition.Signalled(9), d, "sandlock SIGKILLs beyond the ceiling; not exit 1");
        assertTrue(h.evidence().records().stream().map(EvidenceRecord::detail)
                .anyMatch(t -> t.contains("killed by SIGKILL with --max-memory=16384K")));
        assertTrue(h.evidence().records().stream().anyMatch(r -> r.domain().equals(Optional.of(
                CapabilityDomain.RESOURCE))));
    }

    private Execution launch(String script, List<ControlRequirement> base, Scope.Limits limits)
            throws Exception {
        List<ControlRequirement> reqs = new java.util.ArrayList<>(base);
        reqs.add(Fixtures.req(CapabilityDomain.RESOURCE, limits));
        return backend.prepare(Fixtures.plan(Fixtures.spec("/bin/sh", List.of("-c", script), reqs,
                Map.of()))).spawn();
    }
}
