package io.aasm.backend.container.internal.host;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The engine's own sockets, which are root-equivalent (whoever reaches one can start a privileged
 * container): its API socket, and every unix socket a process of the engine (dockerd, containerd, the
 * shims, Podman) listens on, found by matching the inodes of {@code /proc/<pid>/fd} against
 * {@code /proc/net/unix}. Read per launch, since shims come and go. A granted folder that holds one gets it
 * masked; an abstract one (in the host's network namespace) rules out sharing that namespace.
 */
public final class EngineFootprint {
    /** Process names of engines and their helpers (comm is truncated to 15 characters). */
    static final Set<String> ENGINE_NAMES = Set.of("dockerd", "containerd", "containerd-shim", "containerd-shi",
            "docker-proxy", "podman", "conmon", "buildkitd", "runc", "crun");

    public record Footprint(List<Path> sockets, List<String> abstractNames, boolean complete) {
        public Footprint {
            sockets = List.copyOf(sockets);
            abstractNames = List.copyOf(abstractNames);
        }
    }

    private final Path procRoot;

    public EngineFootprint(Path procRoot) {
        this.procRoot = procRoot;
    }

    /** {@code apiSocket} is always part of it, whether or not its holder could be read. */
    public Footprint scan(Path apiSocket) {
        Map<Long, String> named = unixSockets();
        TreeSet<Path> sockets = new TreeSet<>();
        TreeSet<String> abstracts = new TreeSet<>();
        sockets.add(real(apiSocket));
        boolean complete = true;
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(procRoot, "[0-9]*")) {
            for (Path p : procs) {
                if (!ENGINE_NAMES.contains(comm(p))) {
                    continue;
                }
                Optional<List<Long>> inodes = socketInodes(p);
                if (inodes.isEmpty()) {
                    complete = false;
                    continue;
                }
                for (long inode : inodes.get()) {
                    String name = named.get(inode);
                    if (name == null) {
                        continue;
                    }
                    if (name.startsWith("@")) {
                        abstracts.add(name);
                    } else {
                        sockets.add(real(Path.of(name)));
                    }
                }
            }
        } catch (IOException e) {
            complete = false;
        }
        return new Footprint(List.copyOf(sockets), List.copyOf(abstracts), complete);
    }

    /**
     * inode → path (or {@code @name}) of every named unix socket in this network namespace. An abstract name
     * counts only where something can be asked through it: a listening socket, or a datagram socket bound to
     * a name of its own; the kernel's autobind names ({@code @} and five hex digits) are client ends.
     */
    private Map<Long, String> unixSockets() {
        Map<Long, String> out = new HashMap<>();
        try {
            for (String line : Files.readAllLines(procRoot.resolve("net/unix"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 8 || !f[6].matches("\\d+")) {
                    continue;
                }
                boolean listening = f[3].matches("[0-9A-Fa-f]+") && (Long.parseLong(f[3], 16) & 0x10000) != 0;
                boolean autobound = f[7].matches("@[0-9a-f]{5}");
                if (!f[7].startsWith("@") || listening || !autobound) {
                    out.put(Long.parseLong(f[6]), f[7]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no table: only the API socket is known
        }
        return out;
    }

    private static String comm(Path proc) {
        try {
            return Files.readString(proc.resolve("comm")).strip();
        } catch (IOException e) {
            return "";
        }
    }

    private static Optional<List<Long>> socketInodes(Path proc) {
        List<Long> out = new java.util.ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        out.add(Long.parseLong(target.substring(8, target.length() - 1)));
                    }
                } catch (IOException | RuntimeException e) {
                    // closed meanwhile
                }
            }
            return Optional.of(out);
        } catch (IOException e) {
            return Optional.empty(); // another user's engine process: its descriptors are not readable
        }
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
