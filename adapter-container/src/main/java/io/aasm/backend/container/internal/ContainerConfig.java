package io.aasm.backend.container.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Typed configuration (PID io.aasm.backend.container); every setting has a safe default. */
@ObjectClassDefinition(name = "aasm container backend", id = "io.aasm.backend.container")
public @interface ContainerConfig {
    @AttributeDefinition(description = "The engine's API socket (empty: DOCKER_HOST, $XDG_RUNTIME_DIR/docker.sock, "
            + "/var/run/docker.sock, then Podman's)")
    String engine_socket() default "";

    @AttributeDefinition(description = "Image pinned by content (sha256:<id> or name@sha256:<digest>; empty: aasm's "
            + "empty root image, imported once, never pulled)")
    String image() default "";

    @AttributeDefinition(description = "uid:gid the program runs as (empty: the caller's own)")
    String user() default "";

    @AttributeDefinition(description = "Probe cache directory (empty: $XDG_CACHE_HOME/aasm/probes or ~/.cache/aasm/probes)")
    String probe_cache_dir() default "";

    @AttributeDefinition(description = "Test the container from inside before the program runs (aasm's init makes one"
            + " forbidden attempt per prevented domain it can test; a canary that gets through refuses the launch"
            + " with exit 125)")
    boolean canaries() default true;
}
