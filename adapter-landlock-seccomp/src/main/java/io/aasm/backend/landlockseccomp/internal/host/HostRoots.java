package io.aasm.backend.landlockseccomp.internal.host;

import java.nio.file.Path;
import java.util.Objects;

/** Where detection reads /proc and /sys (and mount points) from: the real roots, or a fake tree in tests. */
public record HostRoots(Path proc, Path sys, Path mountPrefix) {
    public HostRoots {
        Objects.requireNonNull(proc);
        Objects.requireNonNull(sys);
        Objects.requireNonNull(mountPrefix);
    }

    public static HostRoots real() {
        return new HostRoots(Path.of("/proc"), Path.of("/sys"), Path.of(""));
    }
}
