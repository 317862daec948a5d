package io.aasm.backend.container.internal;

import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void capabilities() throws Exception {
        Harness h = Harness.shared();
        long t = System.nanoTime();
        var caps = h.backend.capabilities();
        System.out.println("caps in " + (System.nanoTime() - t) / 1_000_000 + " ms: " + caps.availability());
        caps.reports().forEach((d, r) -> System.out.println(d + " " + r.claimCeiling() + " " + r.prerequisites()));
        System.out.println(h.backend.identity());
        java.nio.file.Path ws = java.nio.file.Files.createTempDirectory("hc-smoke");
        t = System.nanoTime();
        var d = h.sh("echo hello; echo err >&2; exit 3", ws);
        System.out.println("exit " + d + " in " + (System.nanoTime() - t) / 1_000_000 + " ms");
    }
}
