package io.aasm.backend.vm.internal;

import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.backend.vm.internal.qemu.QemuSettings;
import io.aasm.backend.vm.internal.runtime.VmSettings;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The real QEMU backend for tests: the image the build assembled (target/guest-image), TCG (as on CI), and
 * one state folder for the whole module run, so the template is booted once. A host without QEMU or a
 * kernel package cannot host these checks and says so.
 */
final class Guests {
    static final Path IMAGE = Path.of(System.getProperty("aasm.vm.image.dir", "target/guest-image"));
    static final Path STATE = Path.of("target/vm-state").toAbsolutePath();
    private static QemuVmBackend backend;

    private Guests() {
    }

    static synchronized QemuVmBackend backend() {
        Assumptions.assumeTrue(GuestImage.load(IMAGE).isPresent(), "environment cannot host this check: no guest image"
                + " in " + IMAGE + " (the build assembles it from an installed Debian kernel package: apt-get install "
                + "linux-image-amd64)");
        Assumptions.assumeTrue(onPath("qemu-system-x86_64"), "environment cannot host this check: qemu-system-x86_64 "
                + "is not installed (apt-get install qemu-system-x86)");
        if (backend == null) {
            backend = new QemuVmBackend(settings("tcg"));
        }
        return backend;
    }

    static QemuSettings settings(String accel) {
        return settings(accel, STATE);
    }

    /** As {@link #settings(String)} with another state folder (templates, run folders); the probe cache is shared. */
    static QemuSettings settings(String accel, Path state) {
        Settings.LibC c = com.sun.jna.Native.load("c", Settings.LibC.class);
        VmSettings vm = new VmSettings(state, STATE.resolve("probes"), Path.of(System.getProperty("java.io.tmpdir")), 512,
                1, 12, 180_000, 90_000, c.geteuid(), c.getegid());
        return new QemuSettings(vm, Optional.empty(), accel, Optional.of(IMAGE.toAbsolutePath()), Path.of("/boot"),
                Path.of("/lib/modules"), Path.of("/usr/bin/setpriv"));
    }

    static boolean onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        return false;
    }

    /** The action by a grandchild of the launched shell: {@code sh -c 'sh -c "action; :"; :'}. */
    static ExecutionSpec grandchild(String action, Path cwd, Map<String, String> env, List<ControlRequirement> reqs) {
        return new ExecutionSpec("/bin/sh", List.of("-c", "/bin/sh -c '" + action + "; :'; :"), cwd.toString(),
                IdentityRef.anonymous(), reqs, env, CredentialPosture.none(), new Stdio.Inherit());
    }

    static ControlRequirement read(String... paths) {
        List<String> p = new ArrayList<>(List.of("/usr", "/bin", "/lib", "/lib64", "/etc"));
        p.addAll(List.of(paths));
        return ControlRequirement.strict(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(p));
    }

    static ControlRequirement write(String... paths) {
        return ControlRequirement.strict(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(paths)));
    }
}
