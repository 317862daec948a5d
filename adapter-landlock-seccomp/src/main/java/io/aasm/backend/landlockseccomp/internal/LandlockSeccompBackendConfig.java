package io.aasm.backend.landlockseccomp.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Typed configuration (PID io.aasm.backend.landlockseccomp). The {@code max.landlock.abi} and {@code assume.*}
 * settings make the backend behave as on a weaker host, so refusals can be tested and operators can
 * pin a floor; they never make the backend claim more than the host offers.
 */
@ObjectClassDefinition(name = "aasm native backend", id = "io.aasm.backend.landlockseccomp")
public @interface LandlockSeccompBackendConfig {
    @AttributeDefinition(description = "Use at most this Landlock ABI (-1: whatever the kernel offers)")
    int max_landlock_abi() default -1;

    @AttributeDefinition(description = "Behave as an unprivileged user even when running as root")
    boolean assume_unprivileged() default false;

    @AttributeDefinition(description = "Behave as if unprivileged user namespaces were disabled")
    boolean assume_no_user_namespaces() default false;

    @AttributeDefinition(description = "Probe cache directory (empty: $XDG_CACHE_HOME/aasm/probes or ~/.cache/aasm/probes)")
    String probe_cache_dir() default "";

    @AttributeDefinition(description = "Use this launcher binary instead of the embedded one (empty: embedded)")
    String launcher_path() default "";

    @AttributeDefinition(description = "Test each boundary from inside before the program runs (one denied attempt"
            + " per prevented domain; a canary that gets through refuses the launch)")
    boolean canaries() default true;
}
