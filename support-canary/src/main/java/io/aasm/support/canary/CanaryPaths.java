package io.aasm.support.canary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Paths as the kernel will see them, for deciding whether a grant covers a canary's object. */
public final class CanaryPaths {
    private CanaryPaths() {
    }

    /**
     * The real path of {@code p}, or of its nearest existing ancestor with the rest appended: a canary
     * folder not made yet is compared where it will be, through any link in the part that exists.
     */
    public static String realOrNearest(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path rest = Path.of("");
        for (Path at = abs; at != null; at = at.getParent()) {
            try {
                if (Files.exists(at)) {
                    return at.toRealPath().resolve(rest).toString();
                }
            } catch (IOException e) {
                return abs.toString();
            }
            rest = at.getFileName() == null ? rest : at.getFileName().resolve(rest);
        }
        return abs.toString();
    }
}
