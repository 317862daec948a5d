package io.aasm.backend.sandlock.internal.supervise;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Identifiers of launches, {@code <jvm pid>-<jvm start time>-<n>}: unique on this host (a pid is
 * unique among live processes, its start time tells a reused pid apart), and naming their owner, so
 * that the next start can tell what a killed predecessor left behind (owner gone) from a live launch
 * of another aasm process (owner alive). Used for the per-launch cgroup and sandlock's sandbox name.
 */
public final class LaunchIds {
    private static final Pattern ID = Pattern.compile("(\\d+)-(\\d+)-\\d+");

    private final ProcessTable procs;
    private final AtomicLong sequence = new AtomicLong();

    public LaunchIds(ProcessTable procs) {
        this.procs = procs;
    }

    /** A fresh id owned by this JVM, or empty when this JVM's own /proc entry cannot be read. */
    public Optional<String> next() {
        return procs.read(ProcessHandle.current().pid()).map(me -> me.pid() + "-" + me.startTime() + "-"
                + sequence.incrementAndGet());
    }

    /** True when {@code text} (after {@code prefix}) is an id whose owner is no longer running. */
    public boolean ownerGone(String text, String prefix) {
        if (!text.startsWith(prefix)) {
            return false;
        }
        Matcher m = ID.matcher(text.substring(prefix.length()));
        if (!m.matches()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        long start = Long.parseLong(m.group(2));
        return procs.read(pid).filter(p -> p.startTime() == start && p.state() != 'Z').isEmpty();
    }
}
