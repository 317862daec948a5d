package io.aasm.backend.vm.internal.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The arm64 image the build assembled (src/main/image/arm64.sh, ImageMain) is reproducible: assembled again from
 * the same unpacked package and cross-compiled agent into another folder, every file is byte-identical, and
 * image.json records the package's and every output's SHA-256 and no path of this checkout. An absent image fails
 * with the build's reason (the build host lacked the arm64 tools or packages; .ci/run installs them).
 */
class Arm64ImageTest {
    private static final Path IMAGE = Path.of(System.getProperty("aasm.vm.arm64.image.dir", "target/guest-image-arm64"));
    private static final Path KERNEL = Path.of(System.getProperty("aasm.vm.arm64.kernel", "target/arm64-kernel"));
    private static final Path AGENT = Path.of(System.getProperty("aasm.vm.arm64.agent",
            "target/classes/native/linux-aarch64/aasm-guest-agent"));

    @Test
    void theArm64ImageIsReproducibleAndRecordsItsInputs(@TempDir Path dir) throws Exception {
        GuestImage built = GuestImage.load(IMAGE).orElseThrow(() -> new AssertionError("no arm64 guest image in "
                + IMAGE + ": the build's \"[aasm-vm] arm64 guest image not built\" line says why"));
        StringBuilder why = new StringBuilder();
        KernelSource k = KernelSource.find(KERNEL.resolve("boot"), KERNEL.resolve("lib/modules"),
                KERNEL.resolve("status"), why).orElseThrow(() -> new AssertionError(why.toString()));
        GuestImage again = ImageBuilder.build(k, AGENT, dir.resolve("image"));
        assertEquals(Files.readString(built.dir().resolve(GuestImage.MANIFEST)),
                Files.readString(again.dir().resolve(GuestImage.MANIFEST)));
        for (String f : new String[] {GuestImage.KERNEL, GuestImage.INITRAMFS, GuestImage.MANIFEST}) {
            assertArrayEquals(Files.readAllBytes(built.dir().resolve(f)), Files.readAllBytes(again.dir().resolve(f)), f);
        }
        JsonNode m = new ObjectMapper().readTree(built.dir().resolve(GuestImage.MANIFEST).toFile());
        assertEquals("aarch64", m.path("arch").asText());
        assertEquals(ImageBuilder.CMDLINE_ARM64, built.cmdline());
        assertEquals(k.packageSha256().orElseThrow(), m.path("kernel").path("package_sha256").asText());
        assertEquals(Digests.sha256(AGENT), built.agentSha256());
        assertEquals(Digests.sha256(built.kernel()), built.kernelSha256());
        assertEquals(Digests.sha256(built.initramfs()), built.initramfsSha256());
        // the kernel both hypervisors boot: an uncompressed arm64 Image (Virtualization.framework takes no other)
        byte[] head = Files.readAllBytes(built.kernel());
        assertEquals("ARMd", new String(head, 0x38, 4, java.nio.charset.StandardCharsets.ISO_8859_1));
        String text = Files.readString(built.dir().resolve(GuestImage.MANIFEST));
        assertTrue(!text.contains(Path.of("").toAbsolutePath().toString()), "image.json names this checkout: " + text);
        // the agent inside is the arm64 one: an ELF for machine 183 (EM_AARCH64)
        byte[] agent = Files.readAllBytes(AGENT);
        assertEquals(183, (agent[18] & 0xff) | (agent[19] & 0xff) << 8);
    }
}
