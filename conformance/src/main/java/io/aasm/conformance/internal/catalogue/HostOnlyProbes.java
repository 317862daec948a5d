package io.aasm.conformance.internal.catalogue;

/**
 * Probes for host-only targets ({@link Staged.HostOnly}): each prints the present marker only when it reaches
 * the target, the absent marker only on the one error that means "no such object" (ESRCH, ENOENT, a refused
 * connect to an abstract name), and anything else otherwise, so a probe that is itself denied proves nothing.
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
}
