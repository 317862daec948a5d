package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.selection.WalkOrder;
import io.aasm.ports.kernel.FrameworkProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The kernel's settings as one value: the configuration and the framework properties read together, so a
 * {@code @Modified} call replaces both at once and a call never sees the walk order of one configuration with
 * the protected paths of another.
 */
record KernelSettings(WalkOrder walkOrder, List<String> protectedPaths) {

    KernelSettings {
        protectedPaths = List.copyOf(protectedPaths);
    }

    static KernelSettings of(KernelConfig config, Function<String, String> properties) {
        return new KernelSettings(
                WalkOrder.of(Optional.ofNullable(properties.apply(FrameworkProperties.AUTO_WALK)), config.auto_walk()),
                protectedPaths(Optional.ofNullable(properties.apply(FrameworkProperties.PROTECTED_PATHS)),
                        config.protected_paths()));
    }

    /**
     * The property (the deployment's own state, set by its launcher) and the configured paths together:
     * configuration can add protected paths, never remove one. Relative entries are dropped.
     */
    static List<String> protectedPaths(Optional<String> property, String[] configured) {
        List<String> raw = new ArrayList<>(property.map(p -> List.of(p.split(":"))).orElse(List.of()));
        raw.addAll(List.of(configured));
        return raw.stream().map(String::strip).filter(p -> p.startsWith("/")).distinct().toList();
    }
}
