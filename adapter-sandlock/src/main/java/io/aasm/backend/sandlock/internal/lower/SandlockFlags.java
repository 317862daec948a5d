package io.aasm.backend.sandlock.internal.lower;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The only flags this adapter may put on a {@code sandlock run} command line, and the flags it must
 * never emit because each widens, waives or bypasses the boundary (or leaks values onto argv).
 * Checked on every command line built, not just in tests.
 */
public final class SandlockFlags {
    /** Flags taking a value, always emitted as {@code --flag=value}. */
    public static final Set<String> VALUED = Set.of("--fs-read", "--fs-write", "--net-allow", "--extra-deny-syscall",
            "--max-processes", "--max-memory", "--max-open-files", "--on-error", "--cwd", "--status-fd", "--disable",
            "--extra-allow-syscall", "--name");
    /** The sandbox names aasm gives: {@code aasm-<jvm pid>-<jvm start>-<n>} (also sandlock's virtual host name). */
    public static final String NAME_PATTERN = "aasm-\\d{1,10}-\\d{1,20}-\\d{1,19}";
    /** Switches without a value. */
    public static final Set<String> SWITCHES = Set.of("--clean-env");

    /**
     * Flags whose value is restricted to exactly these. {@code --disable} and {@code --extra-allow-syscall}
     * open one IPC channel each — emitted only when the policy leaves IPC unstated or grants that channel
     * (every other protection they could turn off stays on); {@code --status-fd} is the guard's descriptor.
     */
    public static final Map<String, Set<String>> RESTRICTED_VALUES = Map.of(
            "--disable", Set.of("signal-scope", "abstract-unix-socket-scope"),
            "--extra-allow-syscall", Set.of("sysv_ipc"),
            "--status-fd", Set.of("3"),
            "--on-error", Set.of("abort"));

    /**
     * Never emitted: each widens, waives or bypasses the boundary ({@code --workdir} stages writes
     * without a write grant; {@code --env} would put values on argv, readable in /proc/PID/cmdline;
     * {@code --net-allow-bind} would open listening ports reachable from the host). Everything else not in
     * {@link #VALUED}/{@link #SWITCHES} is rejected too. {@code --allow-degraded} is never needed: the adapter
     * refuses hosts where {@code sandlock check} is not OK, so no protection is ever missing.
     */
    public static final Set<String> WEAKENING = Set.of(
            "--no-supervisor", "--allow-degraded", "--exec-shell", "-e", "--net-deny", "--net-deny-bind",
            "--net-allow-bind", "--port-remap", "--profile", "-p", "--profile-file", "--user", "--dry-run", "--workdir",
            "--fs-storage", "--chroot", "--fs-mount", "--image", "--gpu", "--http-allow", "--http-deny", "--http-port",
            "--http-ca", "--http-key", "--http-inject-ca", "--credential", "--http-auth", "--env",
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
    public static Optional<String> violation(List<String> options) {
        for (String t : options) {
            String name = nameOf(t);
            if (WEAKENING.contains(name)) {
                return Optional.of("boundary-weakening flag " + name + " on the sandlock command line");
            }
            boolean ok = (VALUED.contains(name) && t.length() > name.length() + 1 && t.charAt(name.length()) == '=')
                    || (SWITCHES.contains(name) && t.equals(name));
            if (!ok) {
                return Optional.of("token '" + t + "' is not an allowed --flag=value option");
            }
            Set<String> allowed = RESTRICTED_VALUES.get(name);
            if (allowed != null && !allowed.contains(t.substring(name.length() + 1))) {
                return Optional.of("value of '" + t + "' is outside " + allowed);
            }
            if (name.equals("--name") && !t.substring(name.length() + 1).matches(NAME_PATTERN)) {
                return Optional.of("sandbox name in '" + t + "' is not one aasm gives");
            }
        }
        return Optional.empty();
    }
}
