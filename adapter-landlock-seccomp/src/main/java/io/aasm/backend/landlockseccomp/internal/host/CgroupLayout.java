package io.aasm.backend.landlockseccomp.internal.host;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where the cgroup controllers live on this host. {@code v1} maps a controller (memory, pids, cpu, ...)
 * to the mount point of its v1 hierarchy; {@code v2} is the cgroup2 mount, if any, and
 * {@code v2Controllers} what its root offers. A controller may be on v1 or on v2, never both.
 */
public record CgroupLayout(Map<String, Path> v1, Optional<Path> v2, java.util.Set<String> v2Controllers,
                           Map<String, String> ownPaths) {
    public CgroupLayout {
        v1 = java.util.Collections.unmodifiableMap(new TreeMap<>(v1));
        v2Controllers = java.util.Set.copyOf(v2Controllers);
        ownPaths = java.util.Collections.unmodifiableMap(new TreeMap<>(ownPaths));
    }

    public enum Kind { NONE, V1, HYBRID, UNIFIED }

    public Kind kind() {
        if (v1.isEmpty()) {
            return v2.isPresent() ? Kind.UNIFIED : Kind.NONE;
        }
        return v2.isPresent() ? Kind.HYBRID : Kind.V1;
    }

    /** Where a controller can be used: a v1 hierarchy root, or the v2 root if v2 offers it. */
    public Optional<ControllerHome> home(String controller) {
        if (v1.containsKey(controller)) {
            return Optional.of(new ControllerHome(controller, v1.get(controller), false,
                    ownPaths.getOrDefault(controller, "/")));
        }
        if (v2.isPresent() && v2Controllers.contains(controller)) {
            return Optional.of(new ControllerHome(controller, v2.get(), true, ownPaths.getOrDefault("", "/")));
        }
        return Optional.empty();
    }

    /** A v2 mount (even one without resource controllers) still offers cgroup.kill for teardown. */
    public Optional<ControllerHome> killHome() {
        return v2.map(root -> new ControllerHome("cgroup.kill", root, true, ownPaths.getOrDefault("", "/")));
    }

    public String describe() {
        return kind().name().toLowerCase(java.util.Locale.ROOT) + " (v1: " + String.join(",", v1.keySet())
                + (v2.map(p -> "; v2 at " + p + " with controllers [" + String.join(",",
                new java.util.TreeSet<>(v2Controllers)) + "]").orElse("")) + ")";
    }

    /** A controller's hierarchy root, whether it is v2, and the JVM's own path inside it. */
    public record ControllerHome(String controller, Path root, boolean unified, String ownPath) {
        public Path ownDirectory() {
            return ownPath.equals("/") ? root : root.resolve(ownPath.substring(1));
        }
    }
}
