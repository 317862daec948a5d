package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The filesystem statements of one launch, resolved: each grant as written and as the real path the view
 * will mount. Absent means the domain is not stated (unrestricted); present and empty means deny-all.
 */
final class FilesystemGrants {
    private final PathReads reads;
    private Optional<List<Grant>> read = Optional.empty();
    private Optional<List<Grant>> write = Optional.empty();
    private List<String> privateDirs = List.of();

    FilesystemGrants(PathReads reads) {
        this.reads = reads;
    }

    /** Resolves one statement; the refusal text when a grant is missing or a write grant was redirected. */
    Optional<String> add(ControlRequirement r) {
        if (!(r.scope() instanceof Scope.Paths || r.scope() instanceof Scope.WholeDomain)) {
            return Optional.of("scope " + r.scope().token() + " does not apply to the filesystem");
        }
        boolean writes = r.domain() == CapabilityDomain.FILESYSTEM_WRITE;
        List<Grant> grants = new ArrayList<>();
        for (String path : r.scope() instanceof Scope.Paths p ? p.paths() : List.<String>of()) {
            Optional<Grant> g;
            try {
                g = Grant.resolve(path, reads);
            } catch (IOException e) {
                return Optional.of("granted path " + path + " cannot be resolved: " + e.getMessage());
            }
            if (g.isEmpty()) {
                return Optional.of("granted path " + path + " does not exist; create it or remove the grant");
            }
            Optional<Grant.Link> planted = g.get().links().stream().filter(l -> l.ownerUid() != 0).findFirst();
            if (writes && planted.isPresent()) {
                // A link any non-root process could have made (a previous launch, say) must not turn a write grant
                // into another folder: grant the real path explicitly if that is what is meant.
                return Optional.of("write grant " + path + " resolves through the symlink " + planted.get().path()
                        + " -> " + planted.get().target() + " (owned by uid " + planted.get().ownerUid() + ", not root);"
                        + " grant the real path " + g.get().real() + " if that is intended");
            }
            grants.add(g.get());
        }
        if (writes) {
            write = Optional.of(grants);
            privateDirs = r.scope() instanceof Scope.Paths p ? p.privateDirs() : List.of();
        } else {
            read = Optional.of(grants);
        }
        return Optional.empty();
    }

    Optional<List<Grant>> read() {
        return read;
    }

    Optional<List<Grant>> write() {
        return write;
    }

    /** Folders that exist fresh, empty and writable for this launch only (write statement). */
    List<String> privateDirs() {
        return privateDirs;
    }

    boolean stated() {
        return read.isPresent() || write.isPresent();
    }

    /** The refusal when a write grant lies inside (or is) one of aasm's own paths. */
    Optional<String> writeInside(List<Grant> protectedPaths) {
        for (Grant w : write.orElse(List.of())) {
            for (Grant p : protectedPaths) {
                if (ViewPlanner.under(w.real(), p.real())) {
                    return Optional.of("write grant " + w.describe() + " lies inside aasm's own state " + p.real()
                            + " (its install, cache or runtime files); no launch may write there");
                }
            }
        }
        return Optional.empty();
    }

    /** Resolves paths that may not exist yet (aasm's own); those missing are left out. */
    List<Grant> resolveAll(List<String> paths) throws IOException {
        List<Grant> out = new ArrayList<>();
        for (String p : paths) {
            Grant.resolve(p, reads).ifPresent(out::add);
        }
        return out;
    }

    static String describe(List<Grant> grants) {
        return grants.isEmpty() ? "nothing" : grants.stream().map(Grant::describe).collect(Collectors.joining(", "));
    }
}
