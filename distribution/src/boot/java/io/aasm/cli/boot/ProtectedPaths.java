package io.aasm.cli.boot;

import io.aasm.ports.kernel.FrameworkProperties;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The framework property {@value #PROPERTY}: aasm's own paths, which no launch may be able to write,
 * because aasm reads, loads or executes what is in them outside any boundary, or serves callers
 * through them. Colon-separated absolute paths, each as it resolves now (symlinks resolved when the
 * path exists):
 * <ul>
 *   <li>the installation ({@code aasm.home}: {@code bin/}, {@code lib/}, {@code bundle/}, {@code deploy/},
 *       {@code conf/});</li>
 *   <li>the cache directory (bundle caches, AppCDS archive, extracted launcher, probe results, private
 *       temporary directories);</li>
 *   <li>the resident kernel's runtime directory (its socket, lock and log: whoever can write there can
 *       put a socket of its own in the kernel's place);</li>
 *   <li>the Java installation running aasm ({@code java.home}), which the next aasm executes;</li>
 *   <li>aasm's state folder (the audit log: a launch that could rewrite it could erase its own record).</li>
 * </ul>
 * The backends read it and refuse a launch whose write grants overlap one of them.
 */
final class ProtectedPaths {
    static final String PROPERTY = FrameworkProperties.PROTECTED_PATHS;

    private ProtectedPaths() {
    }

    static String of(Path home, Path cacheRoot, Path runtimeDir, Path javaHome, Path stateDir) {
        Set<String> paths = new LinkedHashSet<>();
        for (Path p : new Path[] {home, cacheRoot, runtimeDir, javaHome, stateDir}) {
            String s = resolved(p).toString();
            if (s.contains(":")) {
                // the list could not be read back unambiguously; refuse rather than publish a wrong list
                throw new CannotStart("aasm cannot protect " + s + ": its path contains ':'; nothing was started");
            }
            paths.add(s);
        }
        return String.join(":", paths);
    }

    /** $XDG_STATE_HOME/aasm, else ~/.local/state/aasm (where the audit log lives). */
    static Path stateDir() {
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg)
                : Path.of(home(), ".local", "state");
        return base.resolve("aasm");
    }

    private static Path resolved(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        try {
            return abs.toRealPath();
        } catch (IOException e) {
            return abs; // not created yet (a runtime directory before the first kernel): as it will be created
        }
    }

    /**
     * $HOME as the caller set it, else the password database's home: the same home bin/aasm uses for the
     * cache, so a user whose passwd home does not exist (nobody's /nonexistent) can point HOME elsewhere.
     */
    private static String home() {
        String home = System.getenv("HOME");
        return home != null && home.startsWith("/") ? home : System.getProperty("user.home");
    }
}
