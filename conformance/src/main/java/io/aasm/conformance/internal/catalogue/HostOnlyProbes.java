package io.aasm.conformance.internal.catalogue;

/**
 * Probes for host-only targets ({@link Staged.HostOnly}): each prints the present marker only when it reaches
 * the target, the absent marker only on the one error that means "no such object" (ESRCH, ENOENT, a refused
 * connect to an abstract name, to a loopback port, or to a socket file that names no socket of the probe's
 * kernel; no event for a visible file another kernel created), and anything else otherwise, so a probe that is itself denied proves nothing.
 */
final class HostOnlyProbes {
    private static final String P = Staged.HostOnly.PRESENT;
    private static final String A = Staged.HostOnly.ABSENT;

    private HostOnlyProbes() {
    }

    /** A process by pid: {@code kill -0} succeeds (present) or says "No such process" (absent). */
    static String process(long pid) {
        return "e=$(kill -0 " + pid + " 2>&1) && echo " + P + " || case \"$e\" in *'No such process'*) echo " + A
                + ";; *) echo \"aasm-target-unknown: $e\";; esac";
    }

    /** A System V segment by key: the actor dumps it (present) or shmget fails with ENOENT (absent). */
    static String sysvSegment(String actor, String key) {
        return "e=$(" + actor + " shm-dump " + key + " 2>&1) && echo " + P + " || case \"$e\" in "
                + "*'shmget: errno=ENOENT'*) echo " + A + ";; *) echo \"aasm-target-unknown: $e\";; esac";
    }

    /** An abstract unix listener by name: a flush connect is answered (present) or refused (absent). */
    static String abstractSocket(String actor, String name) {
        return "e=$(" + actor + " abstract-flush " + name + " 2>&1) && echo " + P + " || case \"$e\" in "
                + "*'connect flush: errno=ECONNREFUSED'*) echo " + A + ";; *) echo \"aasm-target-unknown: $e\";; esac";
    }

    /**
     * A TCP listener on the host's loopback: a connect is accepted (present) or refused (absent: nothing listens
     * there in the probe's kernel; in a separate kernel 127.0.0.1 is that kernel's own). The probe sends
     * "aasm-probe", after every observation of the cell.
     */
    static String loopbackTcp(String actor, int port) {
        return "e=$(" + actor + " tcp 127.0.0.1 " + port + " aasm-probe 2>&1) && echo " + P + " || case \"$e\" in "
                + "*'connect: errno=ECONNREFUSED'*) echo " + A + ";; *) echo \"aasm-target-unknown: $e\";; esac";
    }

    /**
     * A UDP socket bound on the host's loopback: binding its address fails with EADDRINUSE (present: a socket of
     * the probe's kernel holds it) or succeeds (absent: none does). Any other failure proves nothing.
     */
    static String loopbackUdp(String actor, int port) {
        return "e=$(" + actor + " udp-held 127.0.0.1 " + port + " 2>&1); case \"$e\" in *'udp-held: held'*) echo " + P
                + ";; *'udp-held: free'*) echo " + A + ";; *) echo \"aasm-target-unknown: $e\";; esac";
    }

    /**
     * Events of a change made on the host in a folder the probe can see: the probe watches {@code dir} (the reset
     * chore creates {@code name} in it on the host once {@code armed} exists), then the event is reported (present)
     * or, with the watch added and {@code name} visible in the folder afterwards, it is not (absent: the change was
     * made by another kernel, whose events no share carries). A watch that failed, or a file never seen, proves
     * nothing.
     */
    static String hostEvents(String actor, String dir, String name, String armed, String loot) {
        return "if e=$(" + actor + " inotify " + dir + " " + armed + " " + loot + " 5 2>&1); then if grep -qx " + name
                + " " + loot + "; then echo " + P + "; elif [ -e " + dir + "/" + name + " ]; then echo " + A
                + "; else echo \"aasm-target-unknown: " + name + " never appeared in " + dir + "\"; fi; else echo "
                + "\"aasm-target-unknown: $e\"; fi";
    }

    /**
     * A pathname unix listener: its socket file must be visible, then a connect is accepted (present) or refused
     * (absent: the file names no socket of the probe's kernel, as a host socket seen through a share of a
     * separate kernel does). No socket file proves nothing.
     */
    static String unixListener(String actor, String path) {
        return "if [ -S " + path + " ]; then e=$(" + actor + " unix-connect " + path + " aasm-probe 2>&1) && echo " + P
                + " || case \"$e\" in *'connect unix: errno=ECONNREFUSED'*) echo " + A + ";; *) echo "
                + "\"aasm-target-unknown: $e\";; esac; else echo \"aasm-target-unknown: no socket file at " + path
                + "\"; fi";
    }
}
