package io.aasm.cli.internal;

import io.aasm.ports.kernel.FrameworkProperties;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.osgi.framework.BundleContext;

/**
 * What every face reads from the framework once: the distribution home, the version, aasm's protected
 * paths, how long a command waits for a service, and where the resident kernel's socket is (all set
 * by the boot jar; empty or defaults in a framework it did not start).
 */
record FaceSettings(Optional<Path> home, String version, List<String> protectedPaths, long serviceTimeoutMillis,
                    Optional<Path> residentSocket) {
    static final String RESIDENT_PATH = "aasm.resident.path";
    private static final long DEFAULT_TIMEOUT = 20_000;

    FaceSettings {
        Objects.requireNonNull(home);
        Objects.requireNonNull(version);
        protectedPaths = List.copyOf(protectedPaths);
        Objects.requireNonNull(residentSocket);
    }

    static FaceSettings of(BundleContext ctx) {
        String v = ctx.getProperty("aasm.version");
        String paths = ctx.getProperty(FrameworkProperties.PROTECTED_PATHS);
        return new FaceSettings(Optional.ofNullable(ctx.getProperty(FrameworkProperties.HOME)).map(Path::of),
                v != null ? v : ctx.getBundle().getVersion().toString(),
                paths == null || paths.isEmpty() ? List.of() : List.of(paths.split(":")),
                timeout(ctx.getProperty("aasm.kernel.timeout.ms")),
                Optional.ofNullable(ctx.getProperty(RESIDENT_PATH)).map(Path::of));
    }

    private static long timeout(String v) {
        try {
            return v == null ? DEFAULT_TIMEOUT : Long.parseLong(v);
        } catch (NumberFormatException e) {
            return DEFAULT_TIMEOUT;
        }
    }
}
