package io.aasm.backend.landlockseccomp.internal;

import java.nio.file.Path;
import java.util.Optional;

/** The configuration as plain values, so tests can build the backend without a framework. */
public record LandlockSeccompSettings(int maxLandlockAbi, boolean assumeUnprivileged, boolean assumeNoUserNamespaces,
                             Optional<Path> probeCacheDir, Optional<Path> launcherPath, boolean canaries) {
    /** $XDG_CACHE_HOME/aasm/native, else ~/.cache/aasm/native: files the backend writes for launches. */
    public static Path stateDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("aasm").resolve("native");
    }

    public static LandlockSeccompSettings defaults() {
        return new LandlockSeccompSettings(-1, false, false, Optional.empty(), Optional.empty(), true);
    }

    public static LandlockSeccompSettings from(LandlockSeccompBackendConfig c) {
        return new LandlockSeccompSettings(c.max_landlock_abi(), c.assume_unprivileged(), c.assume_no_user_namespaces(),
                c.probe_cache_dir().isBlank() ? Optional.empty() : Optional.of(Path.of(c.probe_cache_dir())),
                c.launcher_path().isBlank() ? Optional.empty() : Optional.of(Path.of(c.launcher_path())), c.canaries());
    }

    public LandlockSeccompSettings withMaxLandlockAbi(int abi) {
        return new LandlockSeccompSettings(abi, assumeUnprivileged, assumeNoUserNamespaces, probeCacheDir, launcherPath, canaries);
    }

    public LandlockSeccompSettings withAssumeUnprivileged(boolean v) {
        return new LandlockSeccompSettings(maxLandlockAbi, v, assumeNoUserNamespaces, probeCacheDir, launcherPath, canaries);
    }

    public LandlockSeccompSettings withAssumeNoUserNamespaces(boolean v) {
        return new LandlockSeccompSettings(maxLandlockAbi, assumeUnprivileged, v, probeCacheDir, launcherPath, canaries);
    }

    public LandlockSeccompSettings withProbeCacheDir(Path p) {
        return new LandlockSeccompSettings(maxLandlockAbi, assumeUnprivileged, assumeNoUserNamespaces, Optional.of(p),
                launcherPath, canaries);
    }

    /** Without canaries: launches carry no self-test (for measuring what the canaries cost). */
    public LandlockSeccompSettings withoutCanaries() {
        return new LandlockSeccompSettings(maxLandlockAbi, assumeUnprivileged, assumeNoUserNamespaces, probeCacheDir,
                launcherPath, false);
    }

    /** Distinguishes probe caches taken under different simulated hosts. */
    public String fingerprint() {
        return "abi" + maxLandlockAbi + (assumeUnprivileged ? "-unpriv" : "") + (assumeNoUserNamespaces ? "-nouserns" : "");
    }
}
