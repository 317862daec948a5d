package io.aasm.backend.sandlock.internal.lower;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * aasm's own paths (its install, cache, runtime state and JDK: {@code ExecutionSpec.protectedPaths()}),
 * which no launch may write. Landlock grants whole subtrees and cannot except a path beneath a grant, so
 * under sandlock a stated write grant that covers one of them, or lies inside one, cannot be installed;
 * and where writes are opened because the policy does not state them, they are opened on everything
 * beside aasm's paths rather than on their ancestors.
 */
public final class OwnPaths {
    private final List<String> real;

    private OwnPaths(List<String> real) {
        this.real = List.copyOf(real);
    }

    /** The protected paths that exist, resolved to their real paths. */
    public static OwnPaths of(List<String> protectedPaths) {
        return of(protectedPaths, List.of());
    }

    /** {@code backendState}: this backend's own files (its probe cache and extracted guard), protected too. */
    public static OwnPaths of(List<String> protectedPaths, List<String> backendState) {
        List<String> all = new ArrayList<>(protectedPaths);
        all.addAll(backendState);
        List<String> out = new ArrayList<>();
        for (String p : all) {
            try {
                out.add(Path.of(p).toRealPath().toString());
            } catch (IOException e) {
                // not there (yet): nothing of it to protect
            }
        }
        return new OwnPaths(out);
    }

    public static OwnPaths none() {
        return new OwnPaths(List.of());
    }

    public boolean isEmpty() {
        return real.isEmpty();
    }

    /** Why {@code write} cannot be granted, when it covers or lies inside one of aasm's paths. */
    public Optional<String> overlap(Grant write) {
        for (String p : real) {
            if (Grant.under(write.real(), p)) {
                return Optional.of("write grant " + write.describe() + " lies inside aasm's own state " + p + " (its"
                        + " install, cache, runtime files or JDK); no launch may write there");
            }
            if (Grant.under(p, write.real())) {
                return Optional.of("write grant " + write.describe() + " covers aasm's own state " + p + " (its"
                        + " install, cache, runtime files or JDK), and sandlock cannot keep a path beneath a write grant"
                        + " read-only; grant narrower paths beside it");
            }
        }
        return Optional.empty();
    }

    /**
     * {@code root} and everything beneath it, except aasm's paths: the root itself when none lies beneath it,
     * else each entry beside the way down to them (symlinks leading into them left out). Entries created
     * later beside aasm's paths are not covered.
     */
    public List<String> writableBeneath(String root) {
        List<String> out = new ArrayList<>();
        expand(Path.of(root), out);
        return out;
    }

    private void expand(Path dir, List<String> out) {
        String d = dir.toString();
        if (real.stream().anyMatch(p -> Grant.under(d, p))) {
            return;
        }
        if (real.stream().noneMatch(p -> Grant.under(p, d))) {
            out.add(d);
            return;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path e : entries.sorted().toList()) {
                if (!Files.isSymbolicLink(e)) {
                    expand(e, out);
                } else if (safeLink(e)) {
                    out.add(e.toString());
                }
            }
        } catch (IOException e) {
            // an unlistable folder on the way stays closed: narrower than asked, never wider
        }
    }

    private boolean safeLink(Path link) {
        try {
            String target = link.toRealPath().toString();
            return real.stream().noneMatch(p -> Grant.under(target, p) || Grant.under(p, target))
                    && Files.exists(link, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return false; // dangling: sandlock would refuse to start with it
        }
    }
}
