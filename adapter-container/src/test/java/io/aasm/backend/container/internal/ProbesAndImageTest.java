package io.aasm.backend.container.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.container.internal.engine.Engine;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PlatformBoundary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the backend claims comes from probe pairs run in containers on this host, once, then from the
 * cache; and a pinned image (imported from a local root filesystem, never pulled) is used exactly, its own
 * files readable, while a tag is refused.
 */
class ProbesAndImageTest {
    @TempDir
    Path t;

    @Test
    void everyDomainPreventsOnlyAfterItsProbePairObservedTheDenialAndTheCacheIsReused() throws Exception {
        Harness.requireEngine();
        Path cache = Files.createDirectories(t.resolve("probes"));
        BackendCapabilities first = new ContainerBackend(Settings.defaults().withProbeCacheDir(cache)).capabilities();
        assertEquals(PlatformBoundary.CONTAINER, first.platformBoundary());
        for (CapabilityDomain d : CapabilityDomain.values()) {
            var r = first.reportFor(d).orElseThrow();
            assertTrue(r.canPrevent(), d + ": " + r.prerequisites());
            assertTrue(r.prerequisites().get(r.prerequisites().size() - 1).status().toString().contains("in a container"),
                    d + " names where the denial was observed");
        }
        try (var files = Files.list(cache)) {
            assertEquals(1, files.filter(f -> f.getFileName().toString().startsWith("aasm-container-")).count());
        }
        BackendCapabilities second = new ContainerBackend(Settings.defaults().withProbeCacheDir(cache)).capabilities();
        assertEquals(first.measuredAt(), second.measuredAt(), "read from the cache, not probed again");
    }

    /** A root filesystem with busybox only, imported as an image (no registry is ever asked). */
    private static String importBusybox(Path dir) throws Exception {
        Path busybox = Path.of("/bin/busybox");
        Assumptions.assumeTrue(Files.isExecutable(busybox) && Files.size(busybox) > 500_000,
                "environment cannot host this check: busybox-static is not installed (apt-get install busybox-static)");
        Path root = Files.createDirectories(dir.resolve("rootfs/bin"));
        Files.copy(busybox, root.resolve("busybox"));
        Files.createSymbolicLink(root.resolve("sh"), Path.of("busybox"));
        Process tar = new ProcessBuilder("tar", "-C", dir.resolve("rootfs").toString(), "-c", ".").start();
        byte[] bytes = tar.getInputStream().readAllBytes();
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0);
        Engine e = TeardownAndLifelineTest.engine();
        e.importImage(bytes, "aasm-test/busybox", "pinned");
        return e.inspectImage("aasm-test/busybox:pinned").orElseThrow().path("Id").asText();
    }

    @Test
    void aPinnedImageIsTheRootItsFilesReadableWhereTheEmptyRootHasNone() throws Exception {
        Harness.requireEngine();
        String id = importBusybox(t);
        Path out = Files.createDirectories(t.resolve("out"));
        ExecutionSpec spec = new ExecutionSpec("/bin/sh", List.of("-c", "/bin/busybox echo from-the-image > " + out + "/x"),
                out.toString(), IdentityRef.anonymous(), List.of(Harness.req(CapabilityDomain.FILESYSTEM_READ,
                new io.aasm.ports.policy.Scope.Paths(List.of(out.toString())))), Map.of(), CredentialPosture.none(),
                new Stdio.Inherit());
        Harness pinned = new Harness(new ContainerBackend(Settings.defaults().withProbeCacheDir(Harness.cacheDir())
                .withImage(id)));
        assertEquals(new ExitDisposition.Exited(0), pinned.run(spec));
        assertEquals("from-the-image", Files.readString(out.resolve("x")).strip());
        assertTrue(pinned.backend.capabilities().reportFor(CapabilityDomain.FILESYSTEM_READ).orElseThrow().support()
                .toString().contains("pinned image's own files"), "the report says the image's files are readable");
        ExitDisposition empty = Harness.shared().run(spec);
        assertEquals(127, empty.shellStatus(), "control: the empty root has no /bin/sh unless granted");
    }

    @Test
    void aTagIsNotAPinAndIsRefusedWithTheReason() {
        Harness.requireEngine();
        BackendCapabilities c = new ContainerBackend(Settings.defaults().withProbeCacheDir(Harness.cacheDir())
                .withImage("aasm-test/busybox:pinned")).capabilities();
        assertInstanceOf(Availability.Unavailable.class, c.availability());
        assertTrue(((Availability.Unavailable) c.availability()).reason().contains("not pinned by content"));
    }
}
