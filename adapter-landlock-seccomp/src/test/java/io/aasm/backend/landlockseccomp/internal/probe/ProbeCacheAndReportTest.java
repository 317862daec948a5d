package io.aasm.backend.landlockseccomp.internal.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.host.Arch;
import io.aasm.backend.landlockseccomp.internal.host.CgroupLayout;
import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.lower.Need;
import io.aasm.backend.landlockseccomp.internal.lower.Route;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeCacheAndReportTest {
    @TempDir
    Path dir;

    static HostFacts host(int abi) {
        return new HostFacts(Optional.of(Arch.X86_64), "amd64", "6.18", "boot", abi, true, true, 0, OptionalInt.of(1),
                Optional.empty(), new CgroupLayout(Map.of(), Optional.empty(), java.util.Set.of(), Map.of()));
    }

    @Test
    void cacheRoundTripsAndIsKeyedByBootKernelAndLauncher() throws Exception {
        ProbeCache c = new ProbeCache(dir, "boot-1", "6.18", "abc", "abi-1");
        assertTrue(c.read().isEmpty());
        Instant at = Instant.parse("2026-11-29T12:00:00Z");
        var results = Map.of(CapabilityDomain.SYSCALL, ProbeResult.observed("mkdir \"denied\" \\ ok"),
                CapabilityDomain.IPC, ProbeResult.inconclusive("control failed"));
        c.write(new ProbeCache.Entry(at, results));
        ProbeCache.Entry back = c.read().orElseThrow();
        assertEquals(at, back.measuredAt());
        assertEquals(results, back.results());
        assertNotEquals(c.file(), new ProbeCache(dir, "boot-2", "6.18", "abc", "abi-1").file());
        assertNotEquals(c.file(), new ProbeCache(dir, "boot-1", "6.19", "abc", "abi-1").file());
        assertNotEquals(c.file(), new ProbeCache(dir, "boot-1", "6.18", "abd", "abi-1").file());
        assertTrue(c.file().getFileName().toString().startsWith("aasm-native-"));
        Files.writeString(c.file(), "{corrupt");
        assertTrue(c.read().isEmpty(), "a corrupt cache means probing again, never a guess");
    }

    @Test
    void onlyAnObservedDenialLetsADomainPrevent() {
        Route r = new Route.Supported("m", List.of(Need.LANDLOCK_FS), List.of("l"));
        CapabilityReport ok = CapabilityAssembler.report(CapabilityDomain.FILESYSTEM_READ, host(7), r,
                Optional.of(ProbeResult.observed("seen")));
        assertTrue(ok.canPrevent());
        CapabilityReport inconclusive = CapabilityAssembler.report(CapabilityDomain.FILESYSTEM_READ, host(7), r,
                Optional.of(ProbeResult.inconclusive("control failed")));
        assertFalse(inconclusive.canPrevent());
        assertInstanceOf(PrerequisiteStatus.Unchecked.class, inconclusive.prerequisites().get(1).status());
        assertFalse(CapabilityAssembler.report(CapabilityDomain.FILESYSTEM_READ, host(7), r, Optional.empty()).canPrevent());
        CapabilityReport noLandlock = CapabilityAssembler.report(CapabilityDomain.FILESYSTEM_READ, host(0), r,
                Optional.of(ProbeResult.observed("seen")));
        assertFalse(noLandlock.canPrevent());
        assertInstanceOf(PrerequisiteStatus.Unsatisfied.class, noLandlock.prerequisites().get(0).status());
    }
}
