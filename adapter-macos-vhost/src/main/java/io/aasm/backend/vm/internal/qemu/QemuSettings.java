package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.guest.ShareTransport;
import io.aasm.backend.vm.internal.runtime.VmSettings;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The QEMU driver's settings: the common VM settings plus where QEMU, the kernel package and a prebuilt
 * image are, which accelerator to use ({@code auto}: KVM when /dev/kvm works here, else TCG), and how shares
 * reach the guest (9p through a restored template, or virtiofs through a cold boot: QEMU 7.2 cannot snapshot a
 * vhost-user-fs device).
 */
public record QemuSettings(VmSettings vm, Optional<Path> qemu, String accelerator, Optional<Path> imageDir,
                           Path bootDir, Path modulesDir, Path setpriv, ShareTransport shares) {
    /** With 9p shares, the Linux default (docs/vm.md, "Shares: 9p or virtiofs"). */
    public QemuSettings(VmSettings vm, Optional<Path> qemu, String accelerator, Optional<Path> imageDir, Path bootDir,
                        Path modulesDir, Path setpriv) {
        this(vm, qemu, accelerator, imageDir, bootDir, modulesDir, setpriv, ShareTransport.NINE_P);
    }

    public QemuSettings {
        java.util.Objects.requireNonNull(shares);
        if (!accelerator.equals("auto") && !accelerator.equals("kvm") && !accelerator.equals("tcg")) {
            throw new IllegalArgumentException("accelerator must be auto, kvm or tcg, got '" + accelerator + "'");
        }
    }

    public QemuSettings withAccelerator(String a) {
        return new QemuSettings(vm, qemu, a, imageDir, bootDir, modulesDir, setpriv, shares);
    }

    public QemuSettings withImageDir(Path p) {
        return new QemuSettings(vm, qemu, accelerator, Optional.of(p), bootDir, modulesDir, setpriv, shares);
    }

    public QemuSettings withShares(ShareTransport t) {
        return new QemuSettings(vm, qemu, accelerator, imageDir, bootDir, modulesDir, setpriv, t);
    }
}
