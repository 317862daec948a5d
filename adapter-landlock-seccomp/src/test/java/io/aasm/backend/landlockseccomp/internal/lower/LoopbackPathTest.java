package io.aasm.backend.landlockseccomp.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.host.Arch;
import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When the Java side chooses injection for granted loopback ports, and when it keeps the relay. */
class LoopbackPathTest {
    static HostFacts host(Arch arch, String release) {
        HostFacts f = LowererTest.host(6, 0, 1000, true);
        return new HostFacts(Optional.of(arch), f.osArch(), release, f.bootId(), f.landlockAbi(), f.seccompFilter(),
                f.libseccomp(), f.euid(), f.maxUserNamespaces(), f.unprivilegedUsernsClone(), f.cgroups());
    }

    @Test
    void injectionOnlyForLoopbackTcpAloneOnX8664AndLinux514() {
        HostFacts f = host(Arch.X86_64, "6.18.0-aasm");
        assertTrue(LoopbackPath.inject(f, List.of(8000), List.of(), "inject"));
        assertFalse(LoopbackPath.inject(f, List.of(8000), List.of(), "relay"), "the switch keeps the relay");
        assertFalse(LoopbackPath.inject(f, List.of(8000), List.of(53), "inject"), "a UDP grant keeps the relay");
        assertFalse(LoopbackPath.inject(f, List.of(), List.of(), "inject"), "nothing granted, nothing injected");
        assertFalse(LoopbackPath.inject(host(Arch.AARCH64, "6.18"), List.of(8000), List.of(), "inject"));
        assertFalse(LoopbackPath.inject(host(Arch.X86_64, "5.13.0"), List.of(8000), List.of(), "inject"));
        assertTrue(LoopbackPath.inject(host(Arch.X86_64, "5.14.0"), List.of(8000), List.of(), " Inject "));
    }

    @Test
    void theDefaultIsStatedAndABadSettingIsRefusedByName() {
        HostFacts f = host(Arch.X86_64, "6.18");
        assertEquals(LoopbackPath.DEFAULT.equals("inject"), LoopbackPath.inject(f, List.of(8000), List.of(), null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoopbackPath.inject(f, List.of(8000), List.of(), "fast"));
        assertTrue(e.getMessage().contains(LoopbackPath.PROPERTY) && e.getMessage().contains("fast"), e.getMessage());
    }
}
