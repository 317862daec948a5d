package io.aasm.backend.vm.internal.image;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The build's entry point ({@code exec:java}): {@code ImageMain <out dir> <agent>} assembles the guest image for
 * the tests and prints its checksums. Without a Debian kernel package installed it says so and builds
 * nothing; the tests that need a guest then report that this environment cannot host them.
 */
public final class ImageMain {
    private ImageMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ImageMain <out dir> <guest agent>");
            System.exit(2);
        }
        StringBuilder why = new StringBuilder();
        Optional<KernelSource> k = KernelSource.find(why);
        if (k.isEmpty()) {
            System.out.println("[aasm-vm] guest image not assembled: " + why);
            return;
        }
        GuestImage img = ImageBuilder.build(k.get(), Path.of(args[1]), Path.of(args[0]));
        System.out.println("[aasm-vm] guest image " + img.dir() + " (kernel " + img.release() + ", "
                + k.get().packageName() + " " + k.get().packageVersion() + "): vmlinux sha256 " + img.kernelSha256()
                + ", initramfs sha256 " + img.initramfsSha256() + ", agent sha256 " + img.agentSha256()
                + ", image.json sha256 " + img.digest());
    }
}
