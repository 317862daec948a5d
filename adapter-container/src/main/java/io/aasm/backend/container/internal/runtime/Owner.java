package io.aasm.backend.container.internal.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Who owns a container: {@code <jvm pid>-<jvm start time>}, unique on this host while the JVM lives (the
 * start time tells a reused pid apart). Each container carries its owner and a launch number as labels,
 * so the next start of the backend, in any JVM, can tell a container whose supervisor was killed (owner
 * gone) from a live launch of another aasm process (owner alive).
 */
public final class Owner {
    public static final String BACKEND_LABEL = "io.aasm.backend";
    public static final String OWNER_LABEL = "io.aasm.owner";
    public static final String LAUNCH_LABEL = "io.aasm.launch";

    private final Path procRoot;
    private final String self;
    private final AtomicLong sequence = new AtomicLong();

    public Owner(Path procRoot) {
        this.procRoot = procRoot;
        long pid = ProcessHandle.current().pid();
        this.self = pid + "-" + startTime(procRoot, pid).orElse(0L);
    }

    public String self() {
        return self;
    }

    public String nextLaunch() {
        return self + "-" + sequence.incrementAndGet();
    }

    /** True when {@code owner} names a process that is no longer running (or a malformed owner). */
    public boolean gone(String owner) {
        String[] f = owner.split("-");
        if (f.length != 2 || !f[0].matches("\\d+") || !f[1].matches("\\d+")) {
            return true;
        }
        long pid = Long.parseLong(f[0]);
        return startTime(procRoot, pid).filter(t -> t == Long.parseLong(f[1])).isEmpty();
    }

    /** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
    static Optional<Long> startTime(Path procRoot, long pid) {
        try {
            String stat = Files.readString(procRoot.resolve(Long.toString(pid)).resolve("stat"));
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            if (rest[0].equals("Z")) {
                return Optional.empty();
            }
            return Optional.of(Long.parseLong(rest[19]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
