package io.aasm.cli.internal;

import io.aasm.cli.internal.wire.Frames;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code aasm daemon start}: runs this JVM's own command line again with {@code daemon run} in place
 * of its arguments, in a session of its own, and waits until the new kernel answers on the socket.
 */
final class DaemonStart {
    /**
     * Sized for a daemon that sits on a laptop all day (issue 18): its live heap after a full GC is about
     * 12 MiB, so a small serial-collected heap that gives memory back beats the default (a quarter of RAM,
     * G1, one region set per core); an 8 MiB young generation, because every young collection of a 12 MiB
     * live set is short and a larger one only holds garbage resident. C1 only (quick-only) with a small
     * code cache: C2's compiler arenas and code cost about 35 MiB of resident set, and the launch path it
     * would speed up is dominated by the kernel's namespace and mount work, not by Java code. Placed before
     * this JVM's own options, so AASM_JAVA_OPTS still wins. Measured in docs/resident.md (paired variants,
     * RSS idle and through a soak: distribution/bench/daemon-memory.sh).
     */
    static final List<String> DAEMON_JVM = List.of("-XX:+UseSerialGC", "-Xms8m", "-Xmx128m", "-Xmn8m",
            "-XX:MinHeapFreeRatio=20", "-XX:MaxHeapFreeRatio=40", "-XX:MaxMetaspaceSize=128m",
            "-XX:CompilationMode=quick-only", "-XX:ReservedCodeCacheSize=16m");
    /**
     * The C library's heap given back every 5 s: after a burst of launches at 32 clients the malloc arenas kept
     * about 8 MiB the kernel no longer used (docs/resident.md). Only where this JVM has it as a product switch
     * ({@link #trimsNativeHeap}): an unknown option would stop the daemon's JVM from starting.
     */
    static final String TRIM_NATIVE_HEAP = "-XX:TrimNativeHeapInterval=5000";
    /**
     * At most two malloc arenas (glibc's default is eight per core): a connection thread that mallocs (JNA, the
     * JDK's process and file code) otherwise gets an arena of its own, and what it frees stays in that arena.
     * Set only when the caller's environment does not set it.
     */
    static final String MALLOC_ARENA_MAX = "2";

    private DaemonStart() {
    }

    static int start(Path sock, CliIo io) {
        if (!Files.isDirectory(sock.getParent())) {
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "daemon: the runtime directory " + sock.getParent()
                    + " does not exist or is not a directory (see docs/resident.md)");
        }
        File log = sock.resolveSibling("aasm-daemon.log").toFile();
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder(command()).redirectInput(new File("/dev/null"))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).redirectErrorStream(true);
            pb.environment().putIfAbsent("MALLOC_ARENA_MAX", MALLOC_ARENA_MAX);
            p = pb.start();
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "daemon: cannot start the resident kernel: "
                    + e.getMessage());
        }
        long deadline = System.nanoTime() + Long.getLong("aasm.daemon.start.timeout.ms", 60_000) * 1_000_000;
        while (System.nanoTime() < deadline) {
            Optional<String> s = DaemonCommands.ask(sock, Frames.STATUS);
            if (s.isPresent()) {
                io.out().println("aasm daemon: started, " + s.get() + " (log: " + log + ")");
                return ExitCodes.OK;
            }
            if (!p.isAlive() && p.exitValue() != 0) {
                break;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        io.err().println("aasm daemon: the resident kernel did not come up; see " + log);
        return ExitCodes.FAILED_BEFORE_START;
    }

    /**
     * Whether a JVM of version {@code v} has {@code TrimNativeHeapInterval} as a product switch: since 17.0.11,
     * 21.0.3, 22.0.1 and 23 (JDK-8325496; before that it was experimental, from 17.0.9 and 21.0.1, or absent). The
     * daemon's JVM is this one's own command, so this JVM's version is the daemon's.
     */
    static boolean trimsNativeHeap(Runtime.Version v) {
        int f = v.feature();
        int u = v.update();
        return f == 17 && u >= 11 || f == 21 && u >= 3 || f == 22 && u >= 1 || f >= 23;
    }

    /** This JVM's command line (java, its options, -jar BOOT_JAR) with {@code daemon run}, detached. */
    private static List<String> command() {
        ProcessHandle.Info info = ProcessHandle.current().info();
        List<String> cmd = new ArrayList<>();
        if (new File("/usr/bin/setsid").canExecute()) {
            cmd.add("/usr/bin/setsid"); // own session: a closing terminal's SIGHUP must not end the kernel
        }
        cmd.add(info.command().orElseThrow(() -> new CliFailure(ExitCodes.FAILED_BEFORE_START,
                "daemon: cannot read this JVM's command")));
        cmd.addAll(DAEMON_JVM);
        if (trimsNativeHeap(Runtime.version())) {
            cmd.add(TRIM_NATIVE_HEAP);
        }
        String[] jvmArgs = info.arguments().orElse(new String[0]);
        for (int i = 0; i < jvmArgs.length; i++) {
            if (jvmArgs[i].startsWith("-XX:TieredStopAtLevel")) {
                continue; // the kernel's compilation mode is DAEMON_JVM's (C1 only, for its resident set)
            }
            cmd.add(jvmArgs[i]);
            if (jvmArgs[i].equals("-jar") && i + 1 < jvmArgs.length) {
                cmd.add(jvmArgs[i + 1]);
                break;
            }
        }
        cmd.add("daemon");
        cmd.add("run");
        return cmd;
    }
}
