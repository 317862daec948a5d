package io.aasm.backend.sandlock.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Typed configuration of the sandlock backend (PID {@code io.aasm.backend.sandlock}). */
@ObjectClassDefinition(name = "aasm sandlock backend", description = "Drives the external sandlock executable")
public @interface SandlockConfig {
    @AttributeDefinition(description = "Make a sandlock binary whose SHA-256 is not pinned in"
            + " isolation-backends.json unavailable (with the reason) instead of merely reporting it unverified")
    boolean require_verified_provenance() default false;

    @AttributeDefinition(description = "Directory for cached probe results; empty means $XDG_CACHE_HOME/aasm or"
            + " ~/.cache/aasm")
    String probe_cache_dir() default "";

    @AttributeDefinition(description = "Root of sysfs, where the per-launch cgroup is created")
    String sys_root() default "/sys";

    @AttributeDefinition(description = "Root of procfs, read to find descendants and the host boot id")
    String proc_root() default "/proc";

    @AttributeDefinition(description = "Where sandlock keeps its per-sandbox state (sandlock-<uid>/<name>/), so"
            + " that a killed sandlock's left-over directory can be removed")
    String shm_root() default "/dev/shm";

    @AttributeDefinition(description = "Milliseconds between SIGTERM and SIGKILL for a graceful termination")
    long terminate_grace_millis() default 3000;

    @AttributeDefinition(description = "Test the boundary from inside before the program runs (one forbidden"
            + " attempt per prevented domain, made by the shim inside sandlock's sandbox; a canary that gets"
            + " through refuses the launch with exit 125)")
    boolean canaries() default true;
}
