package io.aasm.backend.sandlock.internal.capability;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * aasm's own state ({@link ExecutionSpec#protectedPaths()}: its install with {@code conf/} and
 * {@code deploy/}, caches, runtime directory, the Java running it) must never be writable from inside a
 * boundary: aasm reads, loads and executes it outside every boundary. Landlock only adds access, so
 * sandlock cannot keep a protected path read-only beneath a write grant that covers it. A stated write
 * grant that covers a protected path, lies inside one, or resolves (through symlinks) to one therefore
 * makes {@code filesystem_write} unsupported for this launch, naming both, and the launch is refused.
 */
public final class OwnState {
    private OwnState() {
    }

    public static BackendCapabilities narrow(BackendCapabilities caps, ExecutionSpec spec) {
        if (!caps.available()) {
            return caps;
        }
        for (ControlRequirement r : spec.requirements()) {
            if (r.domain() == CapabilityDomain.FILESYSTEM_WRITE && r.scope() instanceof Scope.Paths p) {
                Optional<String> overlap = overlap(p.paths(), spec.protectedPaths());
                if (overlap.isPresent()) {
                    Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
                    reports.putAll(caps.reports());
                    reports.put(r.domain(), CapabilityReport.unsupported(r.domain(), overlap.get()));
                    return new BackendCapabilities(caps.availability(), caps.platformBoundary(), reports,
                            caps.measuredAt());
                }
            }
        }
        return caps;
    }

    /** The first write grant that overlaps a protected path (component-wise, both resolved), described. */
    static Optional<String> overlap(List<String> writes, List<String> protectedPaths) {
        for (String w : writes) {
            Path wr = resolved(w);
            for (String p : protectedPaths) {
                Path pr = resolved(p);
                if (wr.startsWith(pr) || pr.startsWith(wr)) {
                    String as = wr.toString().equals(w) ? "" : " (resolves to " + wr + ")";
                    return Optional.of("write grant " + w + as + (wr.startsWith(pr) ? " lies inside" : " covers")
                            + " aasm's own state " + pr + " (its install, cache or runtime files); sandlock cannot"
                            + " keep that read-only beneath a write grant, and no launch may write there");
                }
            }
        }
        return Optional.empty();
    }

    private static Path resolved(String path) {
        Path p = Path.of(path).toAbsolutePath().normalize();
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p; // not there yet: compared as written
        }
    }
}
