package io.aasm.backend.sandlock.internal.lower;

import java.util.List;
import java.util.Set;

/**
 * The only flags this adapter may put on a {@code sandlock run} command line, and the flags it must
 * never emit because each widens, waives or bypasses the boundary (or leaks values onto argv).
 * Checked on every command line built, not just in tests.
 */
public final class SandlockFlags {
    /** Flags taking a value, always emitted as {@code --flag=value}. */
    public static final Set<String> VALUED = Set.of("--fs-read", "--fs-write", "--net-allow", "--extra-deny-syscall",
            "--max-processes", "--max-memory", "--max-open-files", "--timeout", "--on-error", "--cwd");
    /** Switches without a value. */
    public static final Set<String> SWITCHES = Set.of("--clean-env");

    /**
     * Never emitted: each widens, waives or bypasses the boundary ({@code --workdir} stages writes
     * without a write grant; {@code --env} would put values on argv, readable in /proc/PID/cmdline).
     * Everything else not in {@link #VALUED}/{@link #SWITCHES} is rejected too. {@code --allow-degraded} is here unconditionally: the adapter refuses hosts where
     * {@code sandlock check} is not OK, so no protection is ever missing and nothing needs waiving.
     */
    public static final Set<String> WEAKENING = Set.of(
            "--no-supervisor", "--disable", "--allow-degraded", "--exec-shell", "-e", "--net-deny", "--net-deny-bind",
            "--net-allow-bind", "--port-remap", "--extra-allow-syscall", "--profile", "-p", "--profile-file",
            "--user", "--dry-run", "--workdir", "--fs-storage", "--chroot", "--fs-mount", "--image", "--gpu",
            "--http-allow", "--http-deny", "--http-port", "--http-ca", "--http-key", "--http-inject-ca",
            "--credential", "--http-auth", "--env",
            // removed in or before 0.8.6; an old wrapper might still send them
            "--net-allow-host", "--net-connect", "--net-bind", "--uid", "--https-ca", "--https-key",
            "--fs-isolation", "--hostname", "--isolate-ipc", "--isolate-signals", "--privileged", "--fs-only");

    private SandlockFlags() {
    }

    /** The flag name of an option token ({@code --fs-read=/x} gives {@code --fs-read}). */
    public static String nameOf(String token) {
        int eq = token.indexOf('=');
        return eq < 0 ? token : token.substring(0, eq);
    }

    /**
     * Verifies the option part of a {@code sandlock run} command line (the tokens between {@code run}
     * and {@code --}); returns the first problem, if any.
     */
    public static java.util.Optional<String> violation(List<String> options) {
        for (String t : options) {
            String name = nameOf(t);
            if (WEAKENING.contains(name)) {
                return java.util.Optional.of("boundary-weakening flag " + name + " on the sandlock command line");
            }
            boolean ok = (VALUED.contains(name) && t.length() > name.length() + 1 && t.charAt(name.length()) == '=')
                    || (SWITCHES.contains(name) && t.equals(name));
            if (!ok) {
                return java.util.Optional.of("token '" + t + "' is not an allowed --flag=value option");
            }
        }
        return java.util.Optional.empty();
    }
}
