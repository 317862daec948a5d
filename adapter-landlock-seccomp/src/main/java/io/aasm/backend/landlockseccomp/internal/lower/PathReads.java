package io.aasm.backend.landlockseccomp.internal.lower;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

/**
 * Every question the lowering asks the filesystem, in one place: the plan cache ({@code PlanCache}) can only
 * trust a plan whose every filesystem answer it can ask again, so no lowering code reads the filesystem any other
 * way. {@link #DIRECT} asks the kernel; {@link RecordedReads} asks it and keeps each answer.
 */
public interface PathReads {
    /** What lstat(2) (or stat(2), {@code follow}) said about a path; {@link #ABSENT} when it could not say. */
    record Node(boolean exists, long dev, long ino, int mode, int uid) {
        public static final Node ABSENT = new Node(false, 0, 0, 0, -1);
        private static final int TYPE = 0170000;

        public boolean directory() {
            return exists && (mode & TYPE) == 0040000;
        }

        public boolean symlink() {
            return exists && (mode & TYPE) == 0120000;
        }
    }

    /** The path itself (a symlink is not followed). */
    Node lstat(Path p);

    /** What the path leads to (symlinks followed). */
    Node stat(Path p);

    /** A symlink's content; throws when the path is not a symlink any more or cannot be read. */
    String readlink(Path p) throws IOException;

    /** access(2) with W_OK for the caller's effective ids. */
    boolean writable(Path p);

    /** {@code CanaryPaths.realOrNearest}: the real path of {@code p}, or of its nearest existing ancestor. */
    String realOrNearest(Path p);

    PathReads DIRECT = new PathReads() {
        @Override
        public Node lstat(Path p) {
            return node(p, LinkOption.NOFOLLOW_LINKS);
        }

        @Override
        public Node stat(Path p) {
            return node(p);
        }

        @Override
        public String readlink(Path p) throws IOException {
            return Files.readSymbolicLink(p).toString();
        }

        @Override
        public boolean writable(Path p) {
            return Files.isWritable(p);
        }

        @Override
        public String realOrNearest(Path p) {
            return io.aasm.support.canary.CanaryPaths.realOrNearest(p);
        }

        /** One system call; any failure reads as absent, as {@code Files.exists} and {@code isDirectory} do. */
        private Node node(Path p, LinkOption... options) {
            try {
                Map<String, Object> a = Files.readAttributes(p, "unix:dev,ino,mode,uid", options);
                return new Node(true, (Long) a.get("dev"), (Long) a.get("ino"), (Integer) a.get("mode"),
                        (Integer) a.get("uid"));
            } catch (IOException | RuntimeException e) {
                return Node.ABSENT;
            }
        }
    };
}
