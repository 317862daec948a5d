package io.aasm.backend.vm.internal.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * An assembled guest image: the uncompressed kernel (booted directly, PVH), the initramfs (the agent as
 * {@code /init} and the modules it loads) and {@code image.json}, which records every input's and output's
 * SHA-256. {@code digest} (of image.json) identifies the image in templates and reports; {@code arch} is the
 * guest's architecture ({@code x86_64} or {@code aarch64}; images of schema 1 were all x86_64).
 */
public record GuestImage(Path dir, Path kernel, Path initramfs, String release, String cmdline, String digest,
                         String kernelSha256, String initramfsSha256, String agentSha256, String arch) {
    public static final String MANIFEST = "image.json";
    public static final String KERNEL = "vmlinux";
    public static final String INITRAMFS = "initramfs.cpio";

    /** The image in {@code dir}, when image.json and both files are there with the sizes it records. */
    public static Optional<GuestImage> load(Path dir) {
        Path manifest = dir.resolve(MANIFEST);
        try {
            byte[] bytes = Files.readAllBytes(manifest);
            JsonNode m = new ObjectMapper().readTree(bytes);
            Path kernel = dir.resolve(KERNEL);
            Path initramfs = dir.resolve(INITRAMFS);
            if (Files.size(kernel) != m.path("kernel").path("vmlinux_size").asLong(-1)
                    || Files.size(initramfs) != m.path("initramfs").path("size").asLong(-1)) {
                return Optional.empty();
            }
            return Optional.of(new GuestImage(dir, kernel, initramfs, m.path("kernel").path("release").asText(),
                    m.path("cmdline").asText(), Digests.sha256(bytes), m.path("kernel").path("vmlinux_sha256").asText(),
                    m.path("initramfs").path("sha256").asText(), m.path("agent").path("sha256").asText(),
                    m.path("arch").asText("x86_64")));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
