package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.ports.capability.PrerequisiteStatus;
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
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The teardown self-check's verdict remembered per host boot, like the probes ({@code ProbeCache}): without it
 * every cold activation started a guard, a shell and a {@code setsid} child and killed them. The key holds
 * everything the verdict depends on: the boot (boot id), the kernel release, this uid, the guard's digest (a
 * changed guard is a new key), the cgroup the tree would be made under (none, or which) and the authority drop
 * the guard applies. Only an observation is kept (satisfied or unsatisfied); "could not run" is never
 * remembered. An entry is read only from a regular file of this uid that nobody else may write, in the backend's
 * own state, which no launch may write (a protected path of every backend).
 */
public final class TeardownCheckCache {
    static final String FORMAT = "aasm.sandlock.teardown-check/1";

    /** A remembered verdict and when it was observed. */
    public record Entry(PrerequisiteStatus status, Instant observedAt) {
    }

    private final Path dir;
    private final Path procRoot;

    public TeardownCheckCache(Path dir, Path procRoot) {
        this.dir = dir;
        this.procRoot = procRoot;
    }

    /** The key of a verdict for this boot and kernel and the given guard, cgroup base and authority drop. */
    public String key(String guardDigest, String cgroupBase, String authority) {
        String boot = read(procRoot.resolve("sys/kernel/random/boot_id"));
        String kernel = read(procRoot.resolve("sys/kernel/osrelease"));
        String all = String.join("|", List.of(FORMAT, boot, kernel, String.valueOf(uid()), guardDigest, cgroupBase,
                authority));
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(all.getBytes(StandardCharsets.UTF_8)), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    public Optional<Entry> load(String key) {
        Path f = file(key);
        try {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || !trusted(f)) {
                return Optional.empty();
            }
            String[] l = Files.readString(f, StandardCharsets.UTF_8).split("\n", 5);
            if (l.length < 4 || !FORMAT.equals(l[0]) || !key.equals(l[1])) {
                return Optional.empty();
            }
            Instant at = Instant.parse(l[3].substring(l[3].indexOf(' ') + 1));
            String text = l.length == 5 ? l[4].strip() : "";
            return switch (l[2]) {
                case "satisfied" -> Optional.of(new Entry(new PrerequisiteStatus.Satisfied(text), at));
                case "unsatisfied" -> Optional.of(new Entry(new PrerequisiteStatus.Unsatisfied(text), at));
                default -> Optional.empty();
            };
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Keeps an observation; an unchecked status (the check could not run) is not one and is not kept. */
    public void store(String key, PrerequisiteStatus status, Instant observedAt) {
        String text;
        if (status instanceof PrerequisiteStatus.Satisfied s) {
            text = s.observation();
        } else if (status instanceof PrerequisiteStatus.Unsatisfied u) {
            text = u.detail();
        } else {
            return;
        }
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "sandlock-teardown", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(tmp, FORMAT + "\n" + key + "\n" + status.token() + "\nobserved " + observedAt + "\n"
                        + text.replace('\n', ' ') + "\n", StandardCharsets.UTF_8);
                Files.move(tmp, file(key), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            // An unwritable cache only means the next activation checks again.
        }
    }

    Path file(String key) {
        return dir.resolve("sandlock-teardown-" + key + ".txt");
    }

    private static boolean trusted(Path f) throws IOException {
        // no lambda here: on a cold path its first call costs more than the check (docs/benchmarks.md)
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
