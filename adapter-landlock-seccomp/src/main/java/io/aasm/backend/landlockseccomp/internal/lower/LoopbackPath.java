package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.backend.landlockseccomp.internal.host.Arch;
import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How granted loopback TCP ports are reached from the program's own network namespace: through the relay (a
 * process outside the namespace splices every byte), or by injection (the program's connect() is answered with a
 * socket of the host's namespace the relay connected itself; no process of ours in the byte path afterwards; see
 * PROTOCOL.md, "Injection"). Injection is chosen only where it can be built exactly: loopback TCP grants alone (a
 * UDP grant or transport mediation keep the relay for everything), x86-64 (the trap filter names its connect), and
 * Linux 5.14 or later (SECCOMP_IOCTL_NOTIF_ADDFD, SO_NETNS_COOKIE). The system property
 * {@value #PROPERTY} ({@code relay} or {@code inject}) overrides the default, so both can be measured in one run.
 */
public final class LoopbackPath {
    public static final String PROPERTY = "aasm.native.loopback";
    /** The default when the property is absent: see docs/benchmarks.md ("Loopback injection") for why. */
    static final String DEFAULT = "inject";
    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");

    private LoopbackPath() {
    }

    /** Whether these grants are reached by injection on this host, given the setting (null: the default). */
    public static boolean inject(HostFacts facts, List<Integer> tcp, List<Integer> udp, String setting) {
        String mode = setting == null ? DEFAULT : setting.trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("inject") && !mode.equals("relay")) {
            throw new IllegalArgumentException(PROPERTY + " must be 'relay' or 'inject', not '" + setting + "'");
        }
        return mode.equals("inject") && !tcp.isEmpty() && udp.isEmpty()
                && facts.arch().equals(Optional.of(Arch.X86_64)) && atLeast(facts.kernelRelease(), 5, 14);
    }

    /** The same, read from the system property. */
    public static boolean inject(HostFacts facts, List<Integer> tcp, List<Integer> udp) {
        return inject(facts, tcp, udp, System.getProperty(PROPERTY));
    }

    static boolean atLeast(String release, int major, int minor) {
        Matcher m = RELEASE.matcher(release);
        if (!m.find()) {
            return false;
        }
        int a = Integer.parseInt(m.group(1));
        int b = Integer.parseInt(m.group(2));
        return a > major || (a == major && b >= minor);
    }
}
