package io.aasm.backend.container.internal;

import io.aasm.backend.container.internal.probe.ProbeCache;
import io.aasm.backend.container.internal.runtime.StateDir;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** The configuration as plain values, so tests can build the backend without a framework. */
public record Settings(Optional<Path> engineSocket, Optional<String> image, Optional<String> user, Path probeCacheDir,
                       Path stateDir, Path procRoot, Map<String, String> env, boolean canaries) {
    public Settings {
        env = Map.copyOf(env);
    }

    /** Canaries on, as shipped. */
    public Settings(Optional<Path> engineSocket, Optional<String> image, Optional<String> user, Path probeCacheDir,
                    Path stateDir, Path procRoot, Map<String, String> env) {
        this(engineSocket, image, user, probeCacheDir, stateDir, procRoot, env, true);
    }

    public static Settings defaults() {
        return new Settings(Optional.empty(), Optional.empty(), Optional.empty(), ProbeCache.defaultDir(),
                StateDir.defaultRoot(), Path.of("/proc"), System.getenv());
    }

    public static Settings from(ContainerConfig c) {
        Settings d = defaults();
        return new Settings(c.engine_socket().isBlank() ? Optional.empty() : Optional.of(Path.of(c.engine_socket())),
                c.image().isBlank() ? Optional.empty() : Optional.of(c.image().strip()),
                c.user().isBlank() ? Optional.empty() : Optional.of(c.user().strip()),
                c.probe_cache_dir().isBlank() ? d.probeCacheDir() : Path.of(c.probe_cache_dir()), d.stateDir(),
                d.procRoot(), d.env(), c.canaries());
    }

    public Settings withImage(String pinned) {
        return new Settings(engineSocket, Optional.of(pinned), user, probeCacheDir, stateDir, procRoot, env, canaries);
    }

    public Settings withUser(String uidGid) {
        return new Settings(engineSocket, image, Optional.of(uidGid), probeCacheDir, stateDir, procRoot, env, canaries);
    }

    public Settings withProbeCacheDir(Path p) {
        return new Settings(engineSocket, image, user, p, stateDir, procRoot, env, canaries);
    }

    public Settings withCanaries(boolean on) {
        return new Settings(engineSocket, image, user, probeCacheDir, stateDir, procRoot, env, on);
    }

    /** Where each launch's canary folder is made (aasm's own cache, outside every container's view). */
    public Path canaryRoot() {
        return probeCacheDir.resolveSibling("container-canaries");
    }
}
