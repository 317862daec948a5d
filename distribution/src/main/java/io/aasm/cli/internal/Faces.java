package io.aasm.cli.internal;

import io.aasm.ports.kernel.FrameworkProperties;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.osgi.framework.BundleContext;

/**
 * Framework properties both faces read: the distribution home, the version, the kernel wait, aasm's
 * protected paths.
 */
final class Faces {
    private Faces() {
    }

    static Optional<Path> home(BundleContext ctx) {
        return Optional.ofNullable(ctx.getProperty(FrameworkProperties.HOME)).map(Path::of);
    }

    static String version(BundleContext ctx) {
        String v = ctx.getProperty("aasm.version");
        return v != null ? v : ctx.getBundle().getVersion().toString();
    }

    /** {@code aasm.protected.paths} (set by the launcher), split; empty when this framework has none. */
    static List<String> protectedPaths(BundleContext ctx) {
        String v = ctx.getProperty(FrameworkProperties.PROTECTED_PATHS);
        return v == null || v.isEmpty() ? List.of() : List.of(v.split(":"));
    }

    static long kernelTimeout(BundleContext ctx) {
        String v = ctx.getProperty("aasm.kernel.timeout.ms");
        try {
            return v == null ? 20_000 : Long.parseLong(v);
        } catch (NumberFormatException e) {
            return 20_000;
        }
    }
}
