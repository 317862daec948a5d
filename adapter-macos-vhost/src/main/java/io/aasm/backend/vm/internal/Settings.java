package io.aasm.backend.vm.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.aasm.backend.vm.internal.qemu.QemuSettings;
import io.aasm.backend.vm.internal.runtime.VmSettings;
import java.nio.file.Path;
import java.util.Optional;

/** The typed configuration as plain values. */
final class Settings {
    interface LibC extends Library {
        int geteuid();

        int getegid();
    }

    private Settings() {
    }

    static QemuSettings qemu(QemuVmConfig c) {
        Path cache = VmSettings.cacheRoot();
        LibC libc = Native.load("c", LibC.class);
        VmSettings vm = new VmSettings(dir(c.state_dir()).orElse(cache.resolve("vm")),
                dir(c.probe_cache_dir()).orElse(cache.resolve("probes")), Path.of(System.getProperty("java.io.tmpdir")),
                c.memory_mib(), c.vcpus(), c.slots(), c.boot_timeout_seconds() * 1000L, c.answer_timeout_seconds() * 1000L,
                libc.geteuid(), libc.getegid());
        return new QemuSettings(vm, dir(c.qemu_path()), c.accelerator(), dir(c.image_dir()), Path.of(c.boot_dir()),
                Path.of(c.modules_dir()), Path.of(c.setpriv_path()),
                io.aasm.backend.vm.internal.guest.ShareTransport.parse(c.share_transport()));
    }

    private static Optional<Path> dir(String s) {
        return s == null || s.isBlank() ? Optional.empty() : Optional.of(Path.of(s));
    }
}
