package io.aasm.kernel.internal.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** What the audit record of a launch needs that its report does not carry: an id, a start, two digests. */
public record LaunchFacts(String launchId, Instant startedAt, String argumentsSha256, Optional<String> policySha256) {
    public LaunchFacts {
        Objects.requireNonNull(launchId);
        Objects.requireNonNull(startedAt);
        Objects.requireNonNull(argumentsSha256);
        Objects.requireNonNull(policySha256);
    }

    /** A launch starting now: the arguments are digested (each followed by a NUL), never kept. */
    public static LaunchFacts starting(List<String> args, Optional<String> policySha256) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String a : args) {
                md.update(a.getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return new LaunchFacts(UUID.randomUUID().toString(), Instant.now(), HexFormat.of().formatHex(md.digest()),
                    policySha256);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is mandatory in every JVM", e);
        }
    }
}
