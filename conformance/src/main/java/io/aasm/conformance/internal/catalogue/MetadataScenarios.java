package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.List;
import java.util.Optional;

/**
 * Metadata writes on a file the policy grants read-only: mode, owner, times, extended attributes. The
 * byte content is not what changes, so the effect is the file's metadata as the suite sees it afterwards
 * (mode, ctime, mtime, the xattr). The control grants the file's folder for writing too (one grant).
 */
final class MetadataScenarios {
    private MetadataScenarios() {
    }

    static List<Scenario> all() {
        return List.of(
                meta("surr-meta-chmod", "chmod a read-only granted file to 0666", f -> "chmod 0666 " + f),
                meta("surr-meta-chown", "chown a read-only granted file (to its own owner: only ctime changes)",
                        f -> "chown $(id -u):$(id -g) " + f),
                meta("surr-meta-utime", "set the modification time of a read-only granted file",
                        f -> "touch -m -d @1000000000 " + f),
                xattr());
    }

    private interface Action {
        String script(Path file);
    }

    /** What the suite compares: mode, owner, ctime and mtime in nanoseconds, the user.aasm xattr. */
    static String metadata(Path f) throws IOException {
        return Files.getAttribute(f, "unix:mode", LinkOption.NOFOLLOW_LINKS) + " "
                + Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS) + ":"
                + Files.getAttribute(f, "unix:gid", LinkOption.NOFOLLOW_LINKS) + " ctime="
                + Files.getAttribute(f, "unix:ctime", LinkOption.NOFOLLOW_LINKS) + " mtime="
                + Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS) + " xattr=" + xattrOf(f);
    }

    private static String xattrOf(Path f) throws IOException {
        UserDefinedFileAttributeView v = Files.getFileAttributeView(f, UserDefinedFileAttributeView.class);
        if (v == null || !v.list().contains("aasm")) {
            return "-";
        }
        ByteBuffer buf = ByteBuffer.allocate(v.size("aasm"));
        v.read("aasm", buf);
        return new String(buf.array(), StandardCharsets.UTF_8);
    }

    private static Scenario meta(String name, String summary, Action action) {
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE, summary, b -> stage(b, name, action));
    }

    private static Scenario xattr() {
        String name = "surr-meta-setxattr";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE,
                "set a user extended attribute on a read-only granted file", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Path probe = b.file("xattr-probe", "x");
                    try {
                        Files.getFileAttributeView(probe, UserDefinedFileAttributeView.class).write("probe",
                                ByteBuffer.wrap(new byte[] {1}));
                    } catch (IOException | UnsupportedOperationException | NullPointerException e) {
                        return new Staging.CannotHost("the workspace's filesystem takes no user extended attributes: "
                                + e.getMessage());
                    }
                    return stage(b, name, f -> b.actor() + " setxattr " + f + " user.aasm planted");
                });
    }

    private static Staging stage(Bench b, String name, Action action) throws IOException {
        Path dir = b.dir("ro");
        Path file = dir.resolve("f");
        String[] before = {reset(file)};
        Staged.Observation effect = () -> {
            String now = metadata(file);
            return now.equals(before[0]) ? Effect.absent("the file's metadata is unchanged")
                    : Effect.happened("the file's metadata changed: " + before[0] + " -> " + now);
        };
        String hostile = b.policy(name).section(b.filesystem(List.of(dir.toString()), List.of())).text();
        String control = b.policy(name).section(b.filesystem(List.of(dir.toString()), List.of(dir.toString()))).text();
        return new Staging.Ready(new Staged(hostile, control, "filesystem.write += " + dir, action.script(file), effect,
                () -> {
                    b.clearOut();
                    before[0] = reset(file);
                }, Staged.Chore.nothing(), Optional.empty()));
    }

    /** A fresh file with known content, mode 0644 and no xattr; returns its metadata. */
    private static String reset(Path file) throws IOException {
        Files.deleteIfExists(file);
        Files.writeString(file, "read-only content\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return metadata(file);
    }
}
