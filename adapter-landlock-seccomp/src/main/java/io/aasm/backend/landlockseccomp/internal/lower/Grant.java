package io.aasm.backend.landlockseccomp.internal.lower;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A filesystem grant as written in the policy and as it resolves on this host. The boundary is built on
 * {@link #real()} (the launcher opens it without following any symlink, so a symlink planted after this
 * resolution refuses the launch instead of redirecting it); {@link #links()} are the symlinks met on the
 * way, recreated inside the program's view so the path as written keeps working (e.g. /bin -> usr/bin).
 * The report names both, so a grant never silently means another folder.
 */
public record Grant(String asWritten, String real, List<Link> links) {
    public Grant {
        Objects.requireNonNull(asWritten);
        Objects.requireNonNull(real);
        links = List.copyOf(links);
    }

    /** A symlink at {@code path} (a real path) whose content is {@code target}, owned by {@code ownerUid}. */
    public record Link(String path, String target, int ownerUid) {
    }

    /** Whether the grant resolves through at least one symlink. */
    public boolean redirected() {
        return !links.isEmpty();
    }

    /** "/bin (a symlink to /usr/bin)" or just the path. */
    public String describe() {
        return redirected() ? asWritten + " (resolves through a symlink to " + real + ")" : real;
    }

    /** At most this many symlinks are followed while resolving one grant, as the kernel does (40). */
    static final int MAX_LINKS = 40;

    /** Resolves an absolute, normalised path component by component; empty when it does not exist. */
    public static Optional<Grant> resolve(String path) throws IOException {
        return resolve(path, PathReads.DIRECT);
    }

    /** The same, every lstat and readlink asked through {@code reads} (one lstat per component). */
    public static Optional<Grant> resolve(String path, PathReads reads) throws IOException {
        Deque<String> todo = new ArrayDeque<>(components(path));
        List<Link> links = new ArrayList<>();
        Path current = Path.of("/");
        while (!todo.isEmpty()) {
            String name = todo.pollFirst();
            if (name.equals("..")) {
                current = current.getParent() == null ? current : current.getParent();
                continue;
            }
            Path next = current.resolve(name);
            PathReads.Node node = reads.lstat(next);
            if (!node.exists()) {
                return Optional.empty();
            }
            if (!node.symlink()) {
                current = next;
                continue;
            }
            if (links.size() >= MAX_LINKS) {
                throw new IOException(path + ": more than " + MAX_LINKS + " symlinks");
            }
            String target = reads.readlink(next);
            links.add(new Link(next.toString(), target, node.uid()));
            List<String> rest = new ArrayList<>(components(target));
            rest.addAll(todo);
            todo.clear();
            todo.addAll(rest);
            if (target.startsWith("/")) {
                current = Path.of("/");
            }
        }
        return Optional.of(new Grant(path, current.toString(), links));
    }

    private static List<String> components(String p) {
        List<String> out = new ArrayList<>();
        for (String c : p.split("/")) {
            if (!c.isEmpty() && !c.equals(".")) {
                out.add(c);
            }
        }
        return out;
    }
}
