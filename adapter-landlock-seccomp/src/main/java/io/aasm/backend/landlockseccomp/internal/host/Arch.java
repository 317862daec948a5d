package io.aasm.backend.landlockseccomp.internal.host;

import java.util.Optional;

/**
 * The CPU architectures the backend knows syscall numbers for. Landlock uses the unified numbers
 * (444..446) on every architecture; seccomp(2) does not.
 */
public enum Arch {
    X86_64("x86_64", 317),
    AARCH64("aarch64", 277);

    public static final long LANDLOCK_CREATE_RULESET = 444;

    private final String token;
    private final long seccompSyscall;

    Arch(String token, long seccompSyscall) {
        this.token = token;
        this.seccompSyscall = seccompSyscall;
    }

    public String token() {
        return token;
    }

    public long seccompSyscall() {
        return seccompSyscall;
    }

    /** Maps a JVM {@code os.arch} value; empty for architectures we have no numbers for. */
    public static Optional<Arch> fromJvm(String osArch) {
        return switch (osArch) {
            case "amd64", "x86_64" -> Optional.of(X86_64);
            case "aarch64", "arm64" -> Optional.of(AARCH64);
            default -> Optional.empty();
        };
    }
}
