package io.aasm.backend.vm.internal.image;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The build's entry point ({@code exec:java}): {@code ImageMain <out dir> <agent>} assembles the guest image for
 * the tests and prints its checksums. Without a Debian kernel package installed it says so and builds
 * nothing, and without the agent (build.sh built none: no libseccomp.a) likewise; the tests that need a guest then
 * report that this environment cannot host them.
 * {@code ImageMain <out dir> <agent> <kernel root>} assembles from a kernel package unpacked under
 * {@code <kernel root>} (its boot/, lib/modules/ and a status stanza: src/main/image/arm64.sh), the arm64 image;
 * without that root or the agent (the build host lacks the arm64 tools, which arm64.sh said) it builds nothing.
 */
public final class ImageMain {
    private ImageMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 && args.length != 3) {
            System.err.println("usage: ImageMain <out dir> <guest agent> [<unpacked kernel package root>]");
            System.exit(2);
        }
        StringBuilder why = new StringBuilder();
        Optional<KernelSource> k;
        if (args.length == 3) {
            Path root = Path.of(args[2]);
            if (!java.nio.file.Files.isDirectory(root) || !java.nio.file.Files.isRegularFile(Path.of(args[1]))) {
                System.out.println("[aasm-vm] guest image " + args[0] + " not assembled: no " + root + " or no "
                        + args[1] + " (see the arm64 inputs step's message above)");
                ImageBuilder.deleteTree(Path.of(args[0])); // an image of an earlier build would be stale
                return;
            }
            k = KernelSource.find(root.resolve("boot"), root.resolve("lib/modules"), root.resolve("status"), why);
        } else if (!java.nio.file.Files.isRegularFile(Path.of(args[1]))) {
            // build.sh said why it built no agent (no libseccomp.a): without one there is no image to assemble
            System.out.println("[aasm-vm] guest image not assembled: no guest agent at " + args[1]);
            ImageBuilder.deleteTree(Path.of(args[0])); // an image of an earlier build would be stale
            return;
        } else {
            k = KernelSource.find(why);
        }
        if (k.isEmpty()) {
            System.out.println("[aasm-vm] guest image not assembled: " + why);
            return;
        }
        GuestImage img = ImageBuilder.build(k.get(), Path.of(args[1]), Path.of(args[0]));
        System.out.println("[aasm-vm] guest image " + img.dir() + " (kernel " + img.release() + ", "
                + k.get().packageName() + " " + k.get().packageVersion() + k.get().packageSha256().map(s -> " sha256 " + s)
                .orElse("") + "): kernel sha256 " + img.kernelSha256()
                + ", initramfs sha256 " + img.initramfsSha256() + ", agent sha256 " + img.agentSha256()
                + ", image.json sha256 " + img.digest());
    }
}
