package io.aasm.kernel.internal.service;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Kernel configuration (PID {@code io.aasm.kernel}). The built-in walk order is empty on purpose:
 * the kernel names no backend, so the deployment supplies the preferred order (configuration or the
 * {@code aasm.auto.walk} property); installed backends not listed follow by ranking, then id.
 */
@ObjectClassDefinition(name = "aasm kernel", description = "Backend selection settings of the aasm kernel")
public @interface KernelConfig {

    String PID = "io.aasm.kernel";

    @AttributeDefinition(name = "Auto walk order",
            description = "Backend ids the auto and process walks try first, in order. The framework or system"
                    + " property aasm.auto.walk (comma list), when set, takes precedence.")
    String[] auto_walk() default {};

    @AttributeDefinition(name = "Protected paths",
            description = "Absolute paths of the deployment's own install, caches and runtime state, which no launch"
                    + " may write: backends make them read-only or unreachable inside the boundary, or refuse a write"
                    + " grant that covers them. Added to the framework property aasm.protected.paths (colon list),"
                    + " which the launcher sets to its own state: configuration can add paths, never remove one.")
    String[] protected_paths() default {};
}
