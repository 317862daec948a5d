package io.aasm.backend.vm.internal.runtime;

import java.nio.file.Path;

/**
 * The VM boundary's settings as plain values (from its typed configuration), so tests build it without a
 * framework. {@code stateDir} holds images, templates and run folders; {@code probeDir} the probe verdicts.
 */
public record VmSettings(Path stateDir, Path probeDir, Path scratchDir, int memoryMib, int vcpus, int slots,
                         long bootMillis, long answerMillis, int uid, int gid) {

    /** $XDG_CACHE_HOME/aasm, else ~/.cache/aasm. */
    public static Path cacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("aasm");
    }
}
