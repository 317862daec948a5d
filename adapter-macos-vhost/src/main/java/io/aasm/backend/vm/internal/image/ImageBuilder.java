package io.aasm.backend.vm.internal.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Assembles a guest image from a Debian kernel package and the guest agent, reproducibly: the same kernel
 * package and agent always give byte-identical files, and image.json records the SHA-256 of each input
 * (kernel image, every module, the agent) and output. Nothing is downloaded. An image already in place with
 * the same inputs is reused; a new one is built beside it and renamed into place.
 */
public final class ImageBuilder {
    /**
     * Loaded in this order by the agent (no modprobe in the guest): virtio PCI, the console port, 9p, virtiofs
     * (Debian builds both FUSE and virtiofs as modules, CONFIG_VIRTIO_FS=m; the shares' transport is the plan's).
     */
    static final List<String> MODULES = List.of("virtio_ring", "virtio", "virtio_pci_legacy_dev",
            "virtio_pci_modern_dev", "virtio_pci", "virtio_console", "netfs", "fscache", "9pnet", "9pnet_virtio", "9p",
            "fuse", "virtiofs");
    /**
     * No ACPI (its PCI interrupt routing costs ~200 ms under TCG; virtio-pci gets INTx from the MP table), no
     * crypto self-tests, only Landlock as LSM, no console output, and no local APIC timer: under TCG its
     * verification always failed ("APIC timer disabled due to verification failure") after about a second of
     * waiting, so the guest used the PIT either way.
     */
    static final String CMDLINE = "console=ttyS0 quiet loglevel=0 acpi=off panic=-1 cryptomgr.notests lsm=landlock "
            + "tsc=reliable no_timer_check noapictimer rdinit=/init";
    /**
     * arm64 (QEMU's virt machine, Virtualization.framework): the PL011 console, device tree rather than ACPI under
     * QEMU's -kernel, and none of the x86 timer switches.
     */
    static final String CMDLINE_ARM64 = "console=ttyAMA0 quiet loglevel=0 panic=-1 cryptomgr.notests lsm=landlock "
            + "rdinit=/init";

    /** Version 2 added "arch" and an unpacked package's "package_sha256"; an image of another schema is rebuilt. */
    static final String SCHEMA = "aasm.vm.guest-image/2";

    private ImageBuilder() {
    }

    public static GuestImage build(KernelSource k, Path agent, Path outDir) throws IOException {
        return build(k, agent, outDir, new FileDigests(Optional.empty()));
    }

    /** {@code digests}: how the kernel package's image is hashed (remembered between runs at run time). */
    public static GuestImage build(KernelSource k, Path agent, Path outDir, FileDigests digests) throws IOException {
        String kernelInput = digests.sha256(k.image());
        String agentSha = Digests.sha256(agent);
        Optional<GuestImage> existing = GuestImage.load(outDir);
        String cmdline = cmdline(k);
        // the command line too: an image assembled with an older one would otherwise be kept
        if (existing.isPresent() && existing.get().agentSha256().equals(agentSha)
                && existing.get().cmdline().equals(cmdline) && inputOf(outDir).map(kernelInput::equals).orElse(false)
                && schemaOf(outDir).equals(SCHEMA)) {
            return existing.get();
        }
        Files.createDirectories(outDir.getParent());
        Path tmp = Files.createTempDirectory(outDir.getParent(), ".image-");
        try {
            if (arm64(k)) {
                Arm64Kernel.extract(k.image(), tmp.resolve(GuestImage.KERNEL));
            } else {
                Vmlinux.extract(k.image(), tmp.resolve(GuestImage.KERNEL));
            }
            Map<String, Object> modules = new LinkedHashMap<>();
            Cpio cpio = new Cpio().dir("dev").charDevice("dev/console", 0600, 5, 1).dir("proc").dir("sys")
                    .dir("modules").file("init", 0755, Files.readAllBytes(agent));
            List<String> order = new ArrayList<>();
            for (String m : MODULES) {
                Optional<Path> ko = module(k.modules(), m);
                if (ko.isEmpty()) {
                    if (builtin(k.modules(), m)) {
                        continue;
                    }
                    throw new IOException("kernel " + k.release() + " has no module " + m + " (built in or as " + m
                            + ".ko under " + k.modules() + ")");
                }
                byte[] bytes = Files.readAllBytes(ko.get());
                cpio.file("modules/" + m + ".ko", 0644, bytes);
                modules.put(m, Digests.sha256(bytes));
                order.add(m + ".ko");
            }
            cpio.file("modules/order", 0644, (String.join("\n", order) + "\n").getBytes(StandardCharsets.UTF_8));
            byte[] initramfs = cpio.bytes();
            Files.write(tmp.resolve(GuestImage.INITRAMFS), initramfs);
            Map<String, Object> manifest = manifest(k, kernelInput, tmp, modules, agentSha, initramfs);
            Files.write(tmp.resolve(GuestImage.MANIFEST), new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsBytes(manifest));
            replace(tmp, outDir);
            return GuestImage.load(outDir).orElseThrow(() -> new IOException("the image just built did not load"));
        } finally {
            deleteTree(tmp);
        }
    }

    private static Map<String, Object> manifest(KernelSource k, String kernelInput, Path dir, Map<String, Object> modules,
                                                String agentSha, byte[] initramfs) throws IOException {
        Map<String, Object> kernel = new LinkedHashMap<>();
        kernel.put("release", k.release());
        kernel.put("package", k.packageName());
        kernel.put("package_version", k.packageVersion());
        // an unpacked package (arm64.sh) lives under target/: its place is recorded relative, so image.json does not
        // depend on where the checkout is
        kernel.put("image", k.packageSha256().isPresent() ? "boot/" + k.image().getFileName() : k.image().toString());
        kernel.put("image_sha256", kernelInput);
        k.packageSha256().ifPresent(s -> kernel.put("package_sha256", s));
        kernel.put("vmlinux_sha256", Digests.sha256(dir.resolve(GuestImage.KERNEL)));
        kernel.put("vmlinux_size", Files.size(dir.resolve(GuestImage.KERNEL)));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", SCHEMA);
        m.put("kernel", kernel);
        m.put("modules", modules);
        m.put("agent", Map.of("sha256", agentSha));
        // an ordered map: Map.of iterates in an order salted per JVM, which made image.json differ between builds
        Map<String, Object> ramfs = new LinkedHashMap<>();
        ramfs.put("sha256", Digests.sha256(initramfs));
        ramfs.put("size", initramfs.length);
        m.put("initramfs", ramfs);
        m.put("arch", arm64(k) ? "aarch64" : "x86_64");
        m.put("cmdline", cmdline(k));
        return m;
    }

    /** Debian names its arm64 kernels {@code <abi>-arm64}. */
    static boolean arm64(KernelSource k) {
        return k.release().endsWith("-arm64");
    }

    static String cmdline(KernelSource k) {
        return arm64(k) ? CMDLINE_ARM64 : CMDLINE;
    }

    private static Optional<String> inputOf(Path dir) {
        try {
            return Optional.of(new ObjectMapper().readTree(dir.resolve(GuestImage.MANIFEST).toFile()).path("kernel")
                    .path("image_sha256").asText());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String schemaOf(Path dir) {
        try {
            return new ObjectMapper().readTree(dir.resolve(GuestImage.MANIFEST).toFile()).path("schema").asText();
        } catch (IOException e) {
            return "";
        }
    }

    private static Optional<Path> module(Path modulesDir, String name) throws IOException {
        try (Stream<Path> walk = Files.walk(modulesDir.resolve("kernel"))) {
            return walk.filter(p -> p.getFileName().toString().equals(name + ".ko")).sorted().findFirst();
        }
    }

    private static boolean builtin(Path modulesDir, String name) {
        try {
            return Files.readAllLines(modulesDir.resolve("modules.builtin")).stream()
                    .anyMatch(l -> l.endsWith("/" + name + ".ko"));
        } catch (IOException e) {
            return false;
        }
    }

    private static void replace(Path built, Path outDir) throws IOException {
        Path old = null;
        if (Files.exists(outDir)) {
            old = outDir.resolveSibling(outDir.getFileName() + ".old-" + ProcessHandle.current().pid());
            Files.move(outDir, old, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(built, outDir, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(old);
    }

    static void deleteTree(Path p) {
        if (p == null || !Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        } catch (IOException e) {
            // a leftover folder in the cache
        }
    }
}
