package io.aasm.backend.container.internal.lower;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The host's top-level folders, for a view whose reads are not confined: each bound at its own path
 * ({@code /bin} that links to {@code usr/bin} shows {@code /usr/bin} there). The pseudo filesystems stay
 * the engine's own; top-level files and dangling links are left out.
 */
public final class HostTree {
    static final Set<String> ENGINE_OWN = Set.of("proc", "sys", "dev");

    private HostTree() {
    }

    /** The entries of a folder (files, folders, links), sorted; empty when it cannot be read. */
    static List<Path> entries(Path dir) {
        try (var s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    public static List<Grant> list(Path root) {
        List<Grant> out = new ArrayList<>();
        try (DirectoryStream<Path> top = Files.newDirectoryStream(root)) {
            for (Path p : top) {
                String name = p.getFileName().toString();
                if (ENGINE_OWN.contains(name) || !Files.isDirectory(p)) {
                    continue;
                }
                try {
                    out.add(new Grant("/" + name, p.toRealPath().toString()));
                } catch (IOException e) {
                    // vanished or unreadable: not part of the view
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        out.sort(java.util.Comparator.comparing(Grant::path));
        return out;
    }
}
