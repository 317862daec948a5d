package io.aasm.backend.sandlock.internal.lower;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A path grant as the policy wrote it and the real path it resolves to on this host now, with every
 * symlink met on the way. Sandlock opens a grant path following symlinks, so a grant whose path was
 * replaced by a link (by an earlier launch, say) would confine to the link's target: aasm hands sandlock
 * the real path and names both in the plan and the report. Components that do not exist are kept as
 * written (the launch is refused before sandlock starts).
 */
public record Grant(String written, String real, List<Link> links) {
    /** A symlink at {@code path} with content {@code target}, owned by {@code ownerUid}. */
    public record Link(String path, String target, long ownerUid) {
    }

    /** At most this many symlinks are followed for one grant, as the kernel does. */
    static final int MAX_LINKS = 40;

    public Grant {
        links = List.copyOf(links);
    }

    public boolean redirected() {
        return !links.isEmpty();
    }

    /** A link on the way that root does not own: a program of that user could have planted it. */
    public Optional<Link> plantable() {
        return links.stream().filter(l -> l.ownerUid() != 0).findFirst();
    }

    /** "/a/link (resolves through a symlink to /b/real)" or just the path. */
    public String describe() {
        return redirected() ? written + " (resolves through a symlink to " + real + ")" : real;
    }

    /** Resolves {@code written} (absolute) component by component, physically (".." after a link is the link's). */
    public static Grant resolve(String written) throws IOException {
        Deque<String> todo = new ArrayDeque<>(components(written));
        Path cur = Path.of("/");
        List<Link> links = new ArrayList<>();
        while (!todo.isEmpty()) {
            String c = todo.pollFirst();
            if (c.isEmpty() || c.equals(".")) {
                continue;
            }
            if (c.equals("..")) {
                cur = cur.getParent() == null ? cur : cur.getParent();
                continue;
            }
            Path next = cur.resolve(c);
            if (!Files.isSymbolicLink(next)) {
                cur = next;
                continue;
            }
            if (links.size() >= MAX_LINKS) {
                throw new IOException(written + ": more than " + MAX_LINKS + " symlinks");
            }
            Path target = Files.readSymbolicLink(next);
            Object owner = Files.getAttribute(next, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            links.add(new Link(next.toString(), target.toString(), ((Number) owner).longValue()));
            List<String> more = components(target.toString());
            for (int i = more.size() - 1; i >= 0; i--) {
                todo.addFirst(more.get(i));
            }
            if (target.isAbsolute()) {
                cur = Path.of("/");
            }
        }
        return new Grant(written, cur.toString(), links);
    }

    private static List<String> components(String path) {
        return List.of(path.split("/"));
    }

    /** Whether {@code inner} is {@code outer} or lies beneath it (real paths). */
    public static boolean under(String inner, String outer) {
        return inner.equals(outer) || outer.equals("/") || inner.startsWith(outer + "/");
    }
}
