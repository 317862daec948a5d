package io.aasm.backend.vm.internal.lower;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A grant's path as the host has it: its real path, and the symlinks met on the way, which the view
 * recreates (a grant of {@code /bin} on a merged-/usr host is the share of {@code /usr/bin} plus the symlink
 * {@code /bin -> usr/bin}). Planning only: the agent resolves nothing through a symlink at launch.
 */
final class HostPaths {
    record Link(String path, String content) {
    }

    record Resolved(String real, List<Link> links, boolean directory, boolean regularFile) {
    }

    private HostPaths() {
    }

    /** The resolution, or empty when the path does not exist on the host (nothing to share). */
    static Optional<Resolved> resolve(String path) {
        List<Link> links = new ArrayList<>();
        Path cur = Path.of("/");
        List<String> todo = new ArrayList<>(components(path));
        int hops = 0;
        try {
            while (!todo.isEmpty()) {
                String c = todo.remove(0);
                Path next = cur.resolve(c);
                if (Files.isSymbolicLink(next)) {
                    if (++hops > 40) {
                        return Optional.empty();
                    }
                    String content = Files.readSymbolicLink(next).toString();
                    links.add(new Link(next.toString(), content));
                    List<String> rest = new ArrayList<>(content.startsWith("/") ? components(content)
                            : components(cur.resolve(content).normalize().toString()));
                    rest.addAll(todo);
                    todo = rest;
                    cur = Path.of("/");
                } else if (Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                    cur = next;
                } else {
                    return Optional.empty();
                }
            }
            return Optional.of(new Resolved(cur.toString(), links, Files.isDirectory(cur, LinkOption.NOFOLLOW_LINKS),
                    Files.isRegularFile(cur, LinkOption.NOFOLLOW_LINKS)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static List<String> components(String path) {
        List<String> out = new ArrayList<>();
        for (String c : Path.of(path).normalize().toString().split("/")) {
            if (!c.isEmpty()) {
                out.add(c);
            }
        }
        return out;
    }

    /** Component-wise: {@code /a/b} is under {@code /a}, {@code /ab} is not; every path is under {@code /}. */
    static boolean under(String path, String ancestor) {
        return ancestor.equals("/") || path.equals(ancestor) || path.startsWith(ancestor + "/");
    }

    static int depth(String path) {
        return components(path).size();
    }
}
