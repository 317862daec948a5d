package io.aasm.kernel.internal.launch;

import io.aasm.ports.backend.LaunchFailureKind;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Resolves the program the supervisor will start, before anything is launched: a name with a
 * slash is relative to the working directory, a bare name is searched on the caller's PATH (not
 * the supervisor's). Not found and not executable are told apart, as a shell does (127 / 126).
 */
public final class ProgramResolver {

    public sealed interface Resolution {
        record Found(String path) implements Resolution {
            public Found {
                Objects.requireNonNull(path);
            }
        }

        record Failed(LaunchFailureKind kind, String detail) implements Resolution {
            public Failed {
                Objects.requireNonNull(kind);
                Objects.requireNonNull(detail);
            }
        }
    }

    public Resolution resolve(String program, String workingDirectory, Map<String, String> callerEnvironment) {
        if (program.isEmpty()) {
            return new Resolution.Failed(LaunchFailureKind.NOT_FOUND, "empty program name");
        }
        try {
            if (program.contains("/")) {
                return check(Path.of(workingDirectory).resolve(program).normalize(), program);
            }
            String path = callerEnvironment.get("PATH");
            if (path == null) {
                return new Resolution.Failed(LaunchFailureKind.NOT_FOUND,
                        program + ": not found (the caller's environment has no PATH)");
            }
            Optional<Resolution.Failed> firstUnusable = Optional.empty();
            for (String dir : path.split(":", -1)) {
                Path base = dir.isEmpty() ? Path.of(workingDirectory) : Path.of(workingDirectory).resolve(dir);
                Path candidate = base.resolve(program).normalize();
                if (!Files.exists(candidate)) {
                    continue;
                }
                Resolution r = check(candidate, program);
                if (r instanceof Resolution.Found) {
                    return r;
                }
                if (firstUnusable.isEmpty()) {
                    firstUnusable = Optional.of((Resolution.Failed) r);
                }
            }
            return firstUnusable.<Resolution>map(f -> f).orElseGet(() -> new Resolution.Failed(
                    LaunchFailureKind.NOT_FOUND, program + ": not found on the caller's PATH"));
        } catch (InvalidPathException e) {
            return new Resolution.Failed(LaunchFailureKind.NOT_FOUND, program + ": not a valid path: " + e.getReason());
        }
    }

    private static Resolution check(Path candidate, String program) {
        Path abs = candidate.toAbsolutePath();
        if (!Files.exists(abs)) {
            return new Resolution.Failed(LaunchFailureKind.NOT_FOUND, program + ": no such file (" + abs + ")");
        }
        if (Files.isDirectory(abs)) {
            return new Resolution.Failed(LaunchFailureKind.NOT_EXECUTABLE, program + ": is a directory (" + abs + ")");
        }
        if (!Files.isExecutable(abs)) {
            return new Resolution.Failed(LaunchFailureKind.NOT_EXECUTABLE,
                    program + ": not executable (" + abs + ")");
        }
        return new Resolution.Found(abs.toString());
    }
}
