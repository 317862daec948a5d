package io.aasm.cli.boot;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * This JVM's own temporary directory, {@code <cache>/tmp/<pid>-<start time>-<pid namespace>} (0700
 * inside a 0700 parent), for what aasm creates and later loads: a private Felix cache when the shared one is busy,
 * FileInstall's working copies, JNA's extracted libraries. Never {@code /tmp}: a confined program with a
 * {@code /tmp} write grant could replace a bundle or native library there that the next JVM loads
 * unconfined.
 *
 * <p>The name records the process start time as well as the pid, so an entry is stale exactly when no
 * process with that pid and start time lives (a reused pid does not keep a dead JVM's entry alive), and
 * the pid namespace, so that a JVM in another one (a container sharing the home directory), whose pids
 * this one cannot see, is never taken for dead. Every start removes the stale entries of JVMs that were
 * killed before they could clean up, and anything else that is not such an entry.
 */
final class PrivateTemp implements AutoCloseable {
    private static final Pattern ENTRY = Pattern.compile("(\\d+)-(\\d+)-(\\d+)");
    private final Path dir;

    private PrivateTemp(Path dir) {
        this.dir = dir;
    }

    static PrivateTemp create(Path cacheRoot) {
        Path parent = cacheRoot.resolve("tmp");
        try {
            try {
                Files.createDirectory(parent, PosixFilePermissions.asFileAttribute(CacheDir.OWNER_ONLY));
            } catch (FileAlreadyExistsException e) {
                // checked below, without following a link
            }
            CacheDir.ownerOnly(parent, true);
            String ns = pidNamespace().orElseThrow(() -> new IOException("cannot read /proc/self/ns/pid"));
            reclaimStale(parent, ns);
            long pid = ProcessHandle.current().pid();
            Path own = parent.resolve(pid + "-" + startTime(pid).orElseThrow(
                    () -> new IOException("cannot read this process's start time from /proc/self/stat")) + "-" + ns);
            Files.createDirectory(own, PosixFilePermissions.asFileAttribute(CacheDir.OWNER_ONLY));
            return new PrivateTemp(own);
        } catch (IOException | UnsupportedOperationException e) {
            throw new CannotStart("cannot create aasm's private temporary directory under " + parent + ": " + e
                    + "; set XDG_CACHE_HOME to a directory of your own; nothing was started");
        }
    }

    Path dir() {
        return dir;
    }

    /** A 0700 subdirectory (created now) for one user of temporary files. */
    Path sub(String name) throws IOException {
        Path p = dir.resolve(name);
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectory(p, PosixFilePermissions.asFileAttribute(CacheDir.OWNER_ONLY));
        }
        return p;
    }

    static void reclaimStale(Path parent, String ownNamespace) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent)) {
            for (Path e : entries) {
                Matcher m = ENTRY.matcher(e.getFileName().toString());
                if (m.matches() && !m.group(3).equals(ownNamespace)) {
                    continue; // another pid namespace's JVM: its pids mean nothing here
                }
                boolean live = m.matches() && startTime(Long.parseLong(m.group(1)))
                        .map(t -> t == Long.parseLong(m.group(2))).orElse(false);
                if (!live) {
                    deleteTree(e);
                }
            }
        }
    }

    /** The inode number of this process's pid namespace ({@code pid:[4026531836]} gives 4026531836). */
    static Optional<String> pidNamespace() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            return Optional.of(link.replaceAll("\\D", "")).filter(s -> !s.isEmpty());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Field 22 of {@code /proc/<pid>/stat}: clock ticks after boot; empty when no such process lives. */
    static Optional<Long> startTime(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(Long.parseLong(f[19]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Deletes without following symlinks (a link is removed, never its target). */
    static void deleteTree(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ex) {
                    // best effort: the next start tries again
                }
            });
        } catch (IOException | RuntimeException e) {
            // already gone, or removed concurrently by another start
        }
    }

    @Override
    public void close() {
        deleteTree(dir);
    }
}
