package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.support.digest.OwnEntry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

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
        return OwnEntry.bootKey(procRoot, FORMAT, guardDigest, cgroupBase, authority);
    }

    public Optional<Entry> load(String key) {
        Optional<String> text = OwnEntry.read(file(key));
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            String[] l = text.get().split("\n", 5);
            if (l.length < 4 || !FORMAT.equals(l[0]) || !key.equals(l[1])) {
                return Optional.empty();
            }
            Instant at = Instant.parse(l[3].substring(l[3].indexOf(' ') + 1));
            String detail = l.length == 5 ? l[4].strip() : "";
            return switch (l[2]) {
                case "satisfied" -> Optional.of(new Entry(new PrerequisiteStatus.Satisfied(detail), at));
                case "unsatisfied" -> Optional.of(new Entry(new PrerequisiteStatus.Unsatisfied(detail), at));
                default -> Optional.empty();
            };
        } catch (RuntimeException e) {
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
        // An unwritable cache only means the next activation checks again.
        OwnEntry.write(dir, file(key), "sandlock-teardown", FORMAT + "\n" + key + "\n" + status.token()
                + "\nobserved " + observedAt + "\n" + text.replace('\n', ' ') + "\n");
    }

    Path file(String key) {
        return dir.resolve("sandlock-teardown-" + key + ".txt");
    }
}
