package io.aasm.transport.proxy.internal.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A session's folder in the mediator's state directory (mode 0700): its decision log and, for a relayed
 * session, its socket (0600). A socket path longer than a unix socket address can hold moves the socket alone
 * to a fresh 0700 folder under /tmp. Only the newest {@link #KEEP} session folders are kept.
 */
final class SessionFiles {
    static final int KEEP = 100;
    /**
     * sockaddr_un.sun_path holds 108 bytes with the terminating NUL, and the JDK counts its own slack: stay well
     * below rather than find the exact bound at bind time.
     */
    static final int MAX_SOCKET_PATH = 100;

    final Path dir;
    final Path log;
    final Path socket;
    private final Path socketDir;

    private SessionFiles(Path dir, Path socketDir) {
        this.dir = dir;
        this.log = dir.resolve("decisions.jsonl");
        this.socketDir = socketDir;
        this.socket = socketDir.resolve("relay.sock");
    }

    static SessionFiles create(Path stateDir, String launchId) throws IOException {
        privateDir(stateDir);
        prune(stateDir);
        Path dir = stateDir.resolve(launchId);
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path socketDir = dir;
        if (dir.resolve("relay.sock").toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            socketDir = Files.createTempDirectory(Path.of("/tmp"), "aasm-m",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return new SessionFiles(dir, socketDir);
    }

    /** Removes the socket (and its own folder when it had to live elsewhere); the log stays. */
    void releaseSocket() {
        try {
            Files.deleteIfExists(socket);
            if (!socketDir.equals(dir)) {
                Files.deleteIfExists(socketDir);
            }
        } catch (IOException ignored) {
            // a stale socket in a private folder serves nobody
        }
    }

    static void privateDir(Path p) throws IOException {
        if (!Files.isDirectory(p)) {
            Files.createDirectories(p.getParent());
            try {
                Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                        "rwx------")));
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another session made it first
            }
        }
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    }

    private static void prune(Path stateDir) {
        List<Path> sessions = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(stateDir, Files::isDirectory)) {
            s.forEach(sessions::add);
        } catch (IOException e) {
            return;
        }
        if (sessions.size() < KEEP) {
            return;
        }
        sessions.sort(Comparator.comparing(SessionFiles::modified));
        for (Path old : sessions.subList(0, sessions.size() - KEEP + 1)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(old)) {
                for (Path f : files) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(old);
            } catch (IOException ignored) {
                // a session still in use keeps its folder
            }
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
