package io.aasm.backend.container.internal.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the engine's API socket is, in the docker client's order: the configured path, {@code DOCKER_HOST}
 * ({@code unix://} only: the backend binds host folders into the container, so the engine must run on this
 * host), rootless Docker's {@code $XDG_RUNTIME_DIR/docker.sock}, {@code /var/run/docker.sock}, then Podman's
 * compatible sockets. Only the Docker engine was tested (see docs/container.md).
 */
public final class EngineSocket {
    private EngineSocket() {
    }

    /** The socket to use, or why there is none (naming every place looked at). */
    public sealed interface Located {
        record Found(Path socket, String how) implements Located {
        }

        record Missing(String reason) implements Located {
        }
    }

    public static Located locate(Optional<Path> configured, Map<String, String> env) {
        if (configured.isPresent()) {
            return existing(configured.get(), "configured (engine.socket)").orElseGet(() -> new Located.Missing(
                    "the configured engine socket " + configured.get() + " is not a socket"));
        }
        String host = env.getOrDefault("DOCKER_HOST", "");
        if (!host.isBlank()) {
            if (!host.startsWith("unix://")) {
                return new Located.Missing("DOCKER_HOST=" + host + " is not a unix:// socket: the container backend "
                        + "binds host folders into the container, so it needs an engine on this host");
            }
            Path p = Path.of(host.substring("unix://".length()));
            return existing(p, "DOCKER_HOST").orElseGet(() -> new Located.Missing("DOCKER_HOST names " + p
                    + ", which is not a socket"));
        }
        List<Path> tried = new ArrayList<>();
        String runtime = env.getOrDefault("XDG_RUNTIME_DIR", "");
        if (runtime.startsWith("/")) {
            tried.add(Path.of(runtime, "docker.sock"));
        }
        tried.add(Path.of("/var/run/docker.sock"));
        tried.add(Path.of("/run/podman/podman.sock"));
        if (runtime.startsWith("/")) {
            tried.add(Path.of(runtime, "podman", "podman.sock"));
        }
        for (Path p : tried) {
            Optional<Located> found = existing(p, "default location");
            if (found.isPresent()) {
                return found.get();
            }
        }
        return new Located.Missing("no container engine socket found (looked at " + tried + "; DOCKER_HOST is not set): "
                + "install and start a Docker engine (apt-get install docker.io), or set DOCKER_HOST=unix://<socket>");
    }

    private static Optional<Located> existing(Path p, String how) {
        if (!p.isAbsolute() || !Files.exists(p) || Files.isDirectory(p) || Files.isRegularFile(p)) {
            return Optional.empty();
        }
        return Optional.of(new Located.Found(p, how));
    }
}
