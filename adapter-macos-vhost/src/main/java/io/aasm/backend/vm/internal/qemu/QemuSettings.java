package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.runtime.VmSettings;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The QEMU driver's settings: the common VM settings plus where QEMU, the kernel package and a prebuilt
 * image are, and which accelerator to use ({@code auto}: KVM when /dev/kvm works here, else TCG).
 */
public record QemuSettings(VmSettings vm, Optional<Path> qemu, String accelerator, Optional<Path> imageDir,
                           Path bootDir, Path modulesDir, Path setpriv) {
    public QemuSettings {
        if (!accelerator.equals("auto") && !accelerator.equals("kvm") && !accelerator.equals("tcg")) {
            throw new IllegalArgumentException("accelerator must be auto, kvm or tcg, got '" + accelerator + "'");
        }
    }

    public QemuSettings withAccelerator(String a) {
        return new QemuSettings(vm, qemu, a, imageDir, bootDir, modulesDir, setpriv);
    }

    public QemuSettings withImageDir(Path p) {
        return new QemuSettings(vm, qemu, accelerator, Optional.of(p), bootDir, modulesDir, setpriv);
    }
}
