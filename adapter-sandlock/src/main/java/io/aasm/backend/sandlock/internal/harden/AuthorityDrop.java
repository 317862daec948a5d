package io.aasm.backend.sandlock.internal.harden;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How the guard empties every capability set of sandlock's process (and so of the whole tree) before it
 * executes sandlock. A process holding CAP_SETPCAP (root) drops them where it is; one without it cannot
 * empty its bounding set there, so it first enters a user namespace of its own uid, mapped to itself,
 * where it can. Either way the guard refuses to start sandlock when a step fails.
 */
public enum AuthorityDrop {
    /** Drop in place: the JVM holds CAP_SETPCAP. */
    DROP("drop"),
    /** Enter a user namespace of the caller's own uid first, then drop. */
    USERNS("userns");

    private static final int CAP_SETPCAP = 8;

    private final String token;

    AuthorityDrop(String token) {
        this.token = token;
    }

    /** The guard's option, {@code authority:drop} or {@code authority:userns}. */
    public String option() {
        return "authority:" + token;
    }

    /** The way for this JVM's credentials, from {@code <procRoot>/self/status}; USERNS when it cannot tell. */
    public static AuthorityDrop forThisProcess(Path procRoot) {
        return effectiveCapabilities(procRoot).filter(caps -> (caps >>> CAP_SETPCAP & 1) == 1).map(c -> DROP)
                .orElse(USERNS);
    }

    static Optional<Long> effectiveCapabilities(Path procRoot) {
        try {
            for (String line : Files.readAllLines(procRoot.resolve("self").resolve("status"))) {
                if (line.startsWith("CapEff:")) {
                    return Optional.of(Long.parseUnsignedLong(line.substring(7).strip(), 16));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // unknown: the guard tries the user namespace, which works for root and non-root alike
        }
        return Optional.empty();
    }
}
