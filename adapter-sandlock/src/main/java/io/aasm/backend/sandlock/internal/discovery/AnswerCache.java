package io.aasm.backend.sandlock.internal.discovery;

import io.aasm.support.digest.OwnEntry;
import java.nio.file.Path;
import java.util.Optional;

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
        Optional<String> text = OwnEntry.read(file(key));
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String[] l = text.get().split("\n", 4);
        if (l.length < 4 || !FORMAT.equals(l[0]) || !key.equals(l[1]) || !"0".equals(l[2])) {
            return Optional.empty();
        }
        return Optional.of(new CommandRunner.Output(0, l[3], ""));
    }

    /** Keeps a clean answer (exit 0, no failure); anything else is asked again next time. */
    public void keep(Path binary, String sha256, String arg, CommandRunner.Output answer) {
        if (answer.exitCode() != 0 || (answer.failure() != null && !answer.failure().isEmpty())) {
            return;
        }
        String key = key(binary, sha256, arg);
        // An unwritable cache only means the next activation asks sandlock again.
        OwnEntry.write(dir, file(key), "sandlock-answer", FORMAT + "\n" + key + "\n0\n" + answer.stdout());
    }

    String key(Path binary, String sha256, String arg) {
        return OwnEntry.bootKey(procRoot, FORMAT, binary.toString(), sha256, arg);
    }

    Path file(String key) {
        return dir.resolve("sandlock-answer-" + key + ".txt");
    }
}
