package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.policy.PolicySource;
import io.aasm.ports.policy.SourceLocation;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Finds the policy source for a file and loads it; a source that throws is a problem, not a crash. */
final class PolicyLoader {

    static final String NO_POLICY = "<none>";

    private final PolicyCache cache = new PolicyCache();

    PolicyLoad load(Optional<String> file, List<PolicySource> sources) {
        if (file.isEmpty()) {
            return new PolicyLoad.Loaded(Policy.empty(NO_POLICY));
        }
        String name = file.get();
        Path path;
        try {
            path = Path.of(name);
        } catch (InvalidPathException e) {
            return problem(name, "not a valid path: " + e.getReason(), "name the policy file by a valid path");
        }
        Optional<String> kind = notRegular(path);
        if (kind.isPresent()) {
            // Opening a FIFO (or a device) would block or never end: refuse before anything reads it.
            return problem(name, "not a regular file (" + kind.get() + "); nothing was read from it",
                    "name a regular policy file");
        }
        Optional<PolicySource> source = sources.stream()
                .filter(s -> Guarded.call("accepts()", () -> s.accepts(path)) instanceof Guarded.Ok<Boolean> ok
                        && ok.value())
                .findFirst();
        if (source.isEmpty()) {
            String formats = sources.stream().map(s -> Guarded.call("format()", s::format))
                    .map(g -> g instanceof Guarded.Ok<String> ok ? ok.value() : "<faulty source>")
                    .sorted().collect(Collectors.joining(", "));
            return problem(name, "no installed policy source reads this file (installed formats: "
                    + (formats.isEmpty() ? "<none>" : formats) + ")",
                    "use a file name the installed formats accept (for example policy.yaml), or install the format");
        }
        Guarded<PolicyLoad> loaded = Guarded.call("load()",
                () -> cache.load(source.get(), path, () -> source.get().load(path)));
        if (loaded instanceof Guarded.Fault<PolicyLoad> f) {
            return problem(name, "the policy source failed: " + f.message(), "report this as a bug in the policy source");
        }
        return ((Guarded.Ok<PolicyLoad>) loaded).value();
    }

    /** What the path is when it exists and is not a regular file (symlinks followed), else empty. */
    static Optional<String> notRegular(Path path) {
        try {
            java.nio.file.attribute.BasicFileAttributes a = java.nio.file.Files.readAttributes(path,
                    java.nio.file.attribute.BasicFileAttributes.class);
            if (a.isRegularFile()) {
                return Optional.empty();
            }
            if (a.isDirectory()) {
                return Optional.of("a directory");
            }
            Object mode = java.nio.file.Files.getAttribute(path, "unix:mode");
            int type = mode instanceof Integer m ? m & 0170000 : 0;
            return Optional.of(switch (type) {
                case 0010000 -> "a FIFO";
                case 0140000 -> "a socket";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                default -> "not a regular file";
            });
        } catch (java.io.IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty(); // missing or unreadable: the source says what is wrong with it
        }
    }

    private static PolicyLoad problem(String file, String message, String hint) {
        return new PolicyLoad.Rejected(List.of(new PolicyProblem(new SourceLocation(file, 0, 0), message, hint)));
    }
}
