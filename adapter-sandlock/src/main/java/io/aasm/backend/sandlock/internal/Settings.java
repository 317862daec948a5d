package io.aasm.backend.sandlock.internal;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/** The backend's settings in plain form, so tests can build them without a framework. */
record Settings(Function<String, Optional<String>> env, boolean requireVerifiedProvenance, Path probeCacheDir,
                Path sysRoot, Path procRoot, Path shmRoot, long terminateGraceMillis, boolean canaries) {

    /** Canaries on, as shipped. */
    Settings(Function<String, Optional<String>> env, boolean requireVerifiedProvenance, Path probeCacheDir,
             Path sysRoot, Path procRoot, Path shmRoot, long terminateGraceMillis) {
        this(env, requireVerifiedProvenance, probeCacheDir, sysRoot, procRoot, shmRoot, terminateGraceMillis, true);
    }

    static Settings from(SandlockConfig c) {
        Function<String, Optional<String>> env = name -> Optional.ofNullable(System.getenv(name));
        Path cache;
        if (!c.probe_cache_dir().isEmpty()) {
            cache = Path.of(c.probe_cache_dir());
        } else {
            cache = env.apply("XDG_CACHE_HOME").filter(s -> s.startsWith("/")).map(Path::of)
                    .orElse(Path.of(System.getProperty("user.home"), ".cache")).resolve("aasm");
        }
        return new Settings(env, c.require_verified_provenance(), cache, Path.of(c.sys_root()),
                Path.of(c.proc_root()), Path.of(c.shm_root()), c.terminate_grace_millis(), c.canaries());
    }

    /** Where each launch's canary folder is made (inside the backend's own state); empty with canaries off. */
    Optional<Path> canaryRoot() {
        return canaries ? Optional.of(probeCacheDir.resolve("sandlock-canaries")) : Optional.empty();
    }

    /** The extracted guard lives next to the probe cache, one directory per digest. */
    Path guardCacheDir() {
        return probeCacheDir.resolve("sandlock-guard");
    }
}
