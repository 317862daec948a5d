package io.aasm.backend.landlockseccomp.internal.launcher;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Optional;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

/**
 * The file an embedded resource of this bundle is read from, so its digest can be remembered under that file's
 * identity ({@code DigestCache}): the resource itself when the classes are a folder (tests), the jar that holds it
 * when loaded from a jar, or the bundle's jar when the framework installed it by reference (the distribution's
 * boot installs every bundle {@code reference:file:…}, so the framework reads the jar in place). Empty when no
 * such file is known (a bundle the framework copied into its own cache): the launcher is then hashed every time.
 *
 * @param file the real file the bytes come from
 * @param key  the cache key: the file, plus {@code !/NAME} when the resource is an entry of a jar
 */
record LauncherSource(Path file, String key) {

    static Optional<LauncherSource> of(String resource) {
        try {
            URL u = LauncherSource.class.getClassLoader().getResource(resource);
            if (u == null) {
                return Optional.empty();
            }
            if ("file".equals(u.getProtocol())) {
                Path real = Path.of(u.toURI()).toRealPath();
                return Optional.of(new LauncherSource(real, real.toString()));
            }
            if ("jar".equals(u.getProtocol())) {
                String s = u.getPath();
                int bang = s.indexOf("!/");
                return bang < 0 ? Optional.empty() : inJar(new URI(s.substring(0, bang)), resource);
            }
            Bundle b = FrameworkUtil.getBundle(LauncherSource.class);
            if (b != null && b.getLocation().startsWith("reference:file:")) {
                return inJar(new URI(b.getLocation().substring("reference:".length())), resource);
            }
            return Optional.empty();
        } catch (URISyntaxException | IOException | RuntimeException e) {
            return Optional.empty(); // no known file: the launcher is hashed, as without a cache
        }
    }

    private static Optional<LauncherSource> inJar(URI jar, String resource) throws IOException {
        if (!"file".equals(jar.getScheme())) {
            return Optional.empty();
        }
        Path real = Path.of(jar).toRealPath();
        return Optional.of(new LauncherSource(real, real + "!/" + resource));
    }
}
