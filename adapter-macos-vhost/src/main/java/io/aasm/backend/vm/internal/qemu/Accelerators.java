package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.image.GuestImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * KVM when /dev/kvm works here, TCG otherwise. A /dev/kvm that opens is not enough (nested virtualization
 * can offer a device that never runs a guest), so in {@code auto} mode KVM is tried on the template's own
 * cold boot; when that fails the reason is kept (per host boot) and TCG is used from then on.
 */
final class Accelerators {
    /** A working KVM boots the guest in about a second; a broken one may hang forever. */
    static final long KVM_TRIAL_MILLIS = 20_000;

    private final String mode;
    private final Path verdict;

    Accelerators(String mode, Path stateDir) {
        this.mode = mode;
        this.verdict = stateDir.resolve("kvm-unusable-" + bootId());
    }

    String mode() {
        return mode;
    }

    /** The template to restore from, made with the first accelerator that boots the guest here. */
    Template template(Templates templates, GuestImage image, Shape tcg) throws IOException {
        if (mode.equals("tcg")) {
            return templates.ensure(image, tcg);
        }
        if (mode.equals("kvm")) {
            return templates.ensure(image, tcg.with(Shape.Accel.KVM));
        }
        Optional<Template> kvm = templates.existing(image, tcg.with(Shape.Accel.KVM));
        if (kvm.isPresent()) {
            return kvm.get();
        }
        if (kvmDeviceUsable() && !Files.exists(verdict)) {
            try {
                return templates.ensure(image, tcg.with(Shape.Accel.KVM), KVM_TRIAL_MILLIS);
            } catch (IOException e) {
                Files.createDirectories(verdict.getParent());
                Files.writeString(verdict, "KVM did not boot the guest: " + e.getMessage() + "\n");
            }
        }
        return templates.ensure(image, tcg);
    }

    /** The template already saved, without booting anything. */
    Optional<Template> known(Templates templates, GuestImage image, Shape tcg) {
        if (!mode.equals("tcg")) {
            Optional<Template> kvm = templates.existing(image, tcg.with(Shape.Accel.KVM));
            if (kvm.isPresent() || mode.equals("kvm")) {
                return kvm;
            }
        }
        return templates.existing(image, tcg);
    }

    private static boolean kvmDeviceUsable() {
        Path dev = Path.of("/dev/kvm");
        return Files.isReadable(dev) && Files.isWritable(dev);
    }

    private static String bootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
