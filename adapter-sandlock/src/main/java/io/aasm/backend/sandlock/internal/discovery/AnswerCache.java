package io.aasm.backend.sandlock.internal.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * sandlock's answers to {@code --version} and {@code check} remembered per host boot and binary, like the probes:
 * without it every cold activation started sandlock twice before deciding anything. The key is the boot id, the
 * kernel release, this uid, the binary's path and SHA-256 (a changed binary is a new key) and the argument; the
 * version an executable prints is a function of its bytes, and what {@code check} finds (Landlock ABI, seccomp) is
 * fixed for a boot. Only a clean answer (exit 0, no failure) is kept. An entry is read only from a regular file of
 * this uid that nobody else may write, in the backend's own state (a protected path of every launch).
 */
public final class AnswerCache {
    static final String FORMAT = "aasm.sandlock.answer/1";

    private final Path dir;
    private final Path procRoot;

    public AnswerCache(Path dir, Path procRoot) {
        this.dir = dir;
        this.procRoot = procRoot;
    }

    /** The remembered answer of {@code binary arg} for this boot, when one was kept for this digest. */
    public Optional<CommandRunner.Output> recall(Path binary, String sha256, String arg) {
        String key = key(binary, sha256, arg);
        Path f = file(key);
        try {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || !trusted(f)) {
                return Optional.empty();
            }
            String[] l = Files.readString(f, StandardCharsets.UTF_8).split("\n", 4);
            if (l.length < 4 || !FORMAT.equals(l[0]) || !key.equals(l[1]) || !"0".equals(l[2])) {
                return Optional.empty();
            }
            return Optional.of(new CommandRunner.Output(0, l[3], ""));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Keeps a clean answer (exit 0, no failure); anything else is asked again next time. */
    public void keep(Path binary, String sha256, String arg, CommandRunner.Output answer) {
        if (answer.exitCode() != 0 || (answer.failure() != null && !answer.failure().isEmpty())) {
            return;
        }
        String key = key(binary, sha256, arg);
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "sandlock-answer", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(tmp, FORMAT + "\n" + key + "\n0\n" + answer.stdout(), StandardCharsets.UTF_8);
                Files.move(tmp, file(key), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            // An unwritable cache only means the next activation asks sandlock again.
        }
    }

    String key(Path binary, String sha256, String arg) {
        String all = String.join("|", List.of(FORMAT, read(procRoot.resolve("sys/kernel/random/boot_id")),
                read(procRoot.resolve("sys/kernel/osrelease")), String.valueOf(uid()), binary.toString(), sha256, arg));
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(all.getBytes(StandardCharsets.UTF_8)), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    Path file(String key) {
        return dir.resolve("sandlock-answer-" + key + ".txt");
    }

    private static boolean trusted(Path f) throws IOException {
        // no lambda here: on a cold path its first call costs more than the check
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(f, LinkOption.NOFOLLOW_LINKS);
        return Integer.valueOf(uid()).equals(Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS))
                && !perms.contains(PosixFilePermission.GROUP_WRITE) && !perms.contains(PosixFilePermission.OTHERS_WRITE);
    }

    private static int uid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
