package io.aasm.backend.landlockseccomp.internal.kernel;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Finds which host process holds one end of a loopback TCP connection (from /proc/net/tcp and /proc/PID/fd). */
final class HostSockets {
    private HostSockets() {
    }

    /** The pid holding the IPv4 socket with local port {@code localPort} connected to remote port {@code remotePort}. */
    static Optional<Long> ownerOfLoopbackConnection(int localPort, int remotePort) throws IOException {
        String local = String.format(Locale.ROOT, ":%04X", localPort);
        String remote = String.format(Locale.ROOT, ":%04X", remotePort);
        String inode = null;
        List<String> lines = Files.readAllLines(Path.of("/proc/net/tcp"));
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.trim().split("\\s+");
            if (f[1].endsWith(local) && f[2].endsWith(remote)) {
                inode = f[9];
            }
        }
        if (inode == null) {
            return Optional.empty();
        }
        String target = "socket:[" + inode + "]";
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
                .matches("[0-9]+"))) {
            for (Path p : procs) {
                try (DirectoryStream<Path> fds = Files.newDirectoryStream(p.resolve("fd"))) {
                    for (Path fd : fds) {
                        if (target.equals(Files.readSymbolicLink(fd).toString())) {
                            return Optional.of(Long.parseLong(p.getFileName().toString()));
                        }
                    }
                } catch (IOException e) {
                    // a process that ended meanwhile, or one we may not inspect
                }
            }
        }
        return Optional.empty();
    }
}
