package io.aasm.backend.landlockseccomp.internal.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Detects the host facts from /proc, /sys and a few queries; every file read tolerates absence. */
public final class HostDetector {
    private final HostRoots roots;
    private final KernelQueries kernel;
    private final String osArch;
    private final boolean libseccomp;

    public HostDetector(HostRoots roots, KernelQueries kernel, String osArch, boolean libseccomp) {
        this.roots = roots;
        this.kernel = kernel;
        this.osArch = osArch;
        this.libseccomp = libseccomp;
    }

    /** The real host, queried through JNA. */
    public static HostDetector real() {
        String osArch = System.getProperty("os.arch");
        Arch arch = Arch.fromJvm(osArch).orElse(Arch.X86_64);
        return new HostDetector(HostRoots.real(), new JnaKernelQueries(arch), osArch,
                io.aasm.backend.landlockseccomp.internal.seccomp.Libseccomp.available());
    }

    public HostFacts detect() {
        Optional<Arch> arch = Arch.fromJvm(osArch);
        int abi = arch.isPresent() ? kernel.landlockAbi().orElse(0) : 0;
        boolean seccomp = arch.isPresent() && kernel.seccompFilterAvailable();
        OptionalInt maxUserNs = readInt(roots.proc().resolve("sys/user/max_user_namespaces"));
        OptionalInt clone = readInt(roots.proc().resolve("sys/kernel/unprivileged_userns_clone"));
        Optional<Boolean> unprivClone = clone.isPresent() ? Optional.of(clone.getAsInt() != 0) : Optional.empty();
        CgroupLayout cg = CgroupLayoutParser.parse(readLines(roots.proc().resolve("self/mountinfo")),
                readLines(roots.proc().resolve("self/cgroup")), roots.mountPrefix());
        return new HostFacts(arch, osArch, read(roots.proc().resolve("sys/kernel/osrelease")).orElse("unknown"),
                read(roots.proc().resolve("sys/kernel/random/boot_id")).orElse("unknown"), abi, seccomp,
                libseccomp, kernel.euid(), maxUserNs, unprivClone, cg);
    }

    private static Optional<String> read(Path p) {
        try {
            return Optional.of(Files.readString(p).trim());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static OptionalInt readInt(Path p) {
        return read(p).flatMap(s -> {
            try {
                return Optional.of(Integer.parseInt(s));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    private static List<String> readLines(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            return List.of();
        }
    }
}
