package io.aasm.backend.container.internal.lower;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A filesystem grant: the path as the policy names it (where the program finds it inside the container)
 * and the real path it resolves to on the host now (what is bound there). The two differ when the grant
 * goes through a symlink; the plan and the evidence name both, so a report never hides where a grant led.
 */
public record Grant(String path, String real) {
    /** Pseudo filesystems the engine mounts itself: a grant there is the container's own, never the host's. */
    static final List<String> ENGINE_OWN = List.of("/proc", "/dev", "/sys");

    public static Grant resolve(String path) throws IOException {
        Path p = Path.of(path).normalize();
        return new Grant(p.toString(), p.toRealPath().toString());
    }

    public boolean throughLink() {
        return !path.equals(real);
    }

    public String describe() {
        return throughLink() ? path + " (resolved to " + real + ")" : path;
    }

    /** {@code p} is {@code dir} or lies beneath it (component-aware). */
    public static boolean under(String p, String dir) {
        return p.equals(dir) || dir.equals("/") || p.startsWith(dir + "/");
    }

    /** The engine-own pseudo filesystem {@code p} lies in, if any. */
    public static java.util.Optional<String> engineOwn(String p) {
        return ENGINE_OWN.stream().filter(root -> under(p, root)).findFirst();
    }
}
