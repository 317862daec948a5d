package io.aasm.backend.landlockseccomp.internal.launcher;

import io.aasm.ports.evidence.DescriptorInventory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Reads the launcher's status lines (PROTOCOL.md) and turns them into outcomes. */
final class StatusReader implements Runnable {
    final CompletableFuture<StartOutcome> start = new CompletableFuture<>();
    final CompletableFuture<ExitOutcome> exit = new CompletableFuture<>();
    final List<String> lines = new ArrayList<>();
    volatile DescriptorInventory descriptors;
    volatile io.aasm.ports.evidence.ProcessAuthority authority;
    volatile CanaryOutcome canary;
    final RecordedDecisions.Builder decisions = new RecordedDecisions.Builder();
    /** The launcher's stage stamps ({@code stages:}, {@code ended:}): stage name to CLOCK_MONOTONIC nanoseconds. */
    final java.util.Map<String, Long> stamps = new java.util.concurrent.ConcurrentHashMap<>();
    private final LauncherHandle process;
    private final ByteChannel channel;
    private String finalLine;

    private StatusReader(LauncherHandle process, ByteChannel channel) {
        this.process = process;
        this.channel = channel;
    }

    static StatusReader start(LauncherHandle process, ByteChannel channel) {
        StatusReader r = new StatusReader(process, channel);
        StatusThreads.read(r, process.pid());
        return r;
    }

    static StatusReader unconnected(LauncherHandle process, String why) {
        StatusReader r = new StatusReader(process, null);
        r.finish(why);
        return r;
    }

    @Override
    public void run() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(4096);
        try {
            while (channel.read(buf) > 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    byte b = buf.get();
                    if (b == '\n') {
                        accept(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                    } else {
                        line.write(b);
                    }
                }
                buf.clear();
            }
        } catch (IOException e) {
            // Treated like end of stream: the launcher's exit status decides below.
        }
        if (channel instanceof PlanChannel p) {
            p.readerDone(); // its descriptor may go once the lifeline is cut too
        }
        finish("launcher closed its status channel");
    }

    void accept(String l) {
        synchronized (lines) {
            lines.add(l);
        }
        String[] f = l.split(":", 3);
        switch (f[0]) {
            case "refused" -> start.complete(new StartOutcome.Refused(f.length > 1 ? f[1] : "", f.length > 2 ? f[2] : ""));
            case "started" -> start.complete(new StartOutcome.Started(parseLong(f.length > 1 ? f[1] : "-1"),
                    parseLong(f.length > 2 ? f[2].split(":")[0] : "-1")));
            case "exec-failed" -> start.complete(new StartOutcome.ExecFailed((int) parseLong(f.length > 1 ? f[1] : "-1")));
            case "fds" -> descriptors = parseFds(l.substring(4));
            case "authority" -> authority = parseAuthority(l.substring(10));
            case "canary" -> canary = new CanaryOutcome.Ran((int) parseLong(f.length > 1 ? f[1] : "0"),
                    (int) parseLong(f.length > 2 ? f[2] : "0"));
            case "decisions", "decision", "decisions-unavailable" -> decisions.accept(l);
            case "canary-unavailable" -> canary = new CanaryOutcome.Unavailable(f.length > 1 ? l.substring(19) : "");
            case "exit", "error" -> {
                finalLine = l;
                exitOnLine();
            }
            case "stages", "ended" -> parseStamps(l.substring(f[0].length() + 1));
            default -> { } // unknown lines are kept in the transcript only (forward compatibility)
        }
    }

    /**
     * The launcher writes {@code exit:} as its last word, after init has reaped the whole tree, the relay is
     * stopped and the terminal restored: nothing of the launch runs any more, only the launcher's own exit is
     * left. The outcome is complete then, without waiting for end of file and the launcher's reaping (a round
     * trip through the zygote or the JVM's reaper). The launcher's own status still waits for its reaping
     * ({@link LauncherProcess#launcherExitCode}). {@code -Daasm.native.launcher.exit=reaped} waits as before.
     */
    private void exitOnLine() {
        if (!EXIT_ON_LINE || !(start.isDone() && start.join() instanceof StartOutcome.Started)) {
            return;
        }
        if (finalLine.startsWith("exit:code:")) {
            exit.complete(new ExitOutcome.Exited((int) parseLong(finalLine.substring(10))));
        } else if (finalLine.startsWith("exit:signal:")) {
            exit.complete(new ExitOutcome.Signalled((int) parseLong(finalLine.substring(12))));
        }
    }

    static final boolean EXIT_ON_LINE = !"reaped".equals(System.getProperty("aasm.native.launcher.exit", "").trim());

    private void finish(String why) {
        int rc;
        try {
            rc = process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            rc = -1;
        }
        start.complete(new StartOutcome.LauncherFailed(why + " without a start report (launcher status " + rc + ")"));
        StartOutcome s = start.join();
        if (!(s instanceof StartOutcome.Started)) {
            exit.complete(new ExitOutcome.NeverStarted(s));
        } else if (finalLine != null && finalLine.startsWith("exit:code:")) {
            exit.complete(new ExitOutcome.Exited((int) parseLong(finalLine.substring(10))));
        } else if (finalLine != null && finalLine.startsWith("exit:signal:")) {
            exit.complete(new ExitOutcome.Signalled((int) parseLong(finalLine.substring(12))));
        } else {
            exit.complete(new ExitOutcome.LauncherFailed(finalLine != null ? finalLine : why, rc));
        }
    }

    private void parseStamps(String body) {
        for (String part : body.split(",")) {
            int eq = part.indexOf('=');
            long v = eq > 0 ? parseLong(part.substring(eq + 1)) : -1;
            if (v > 0) {
                stamps.put(part.substring(0, eq), v);
            }
        }
    }

    static DescriptorInventory parseFds(String body) {
        List<Integer> kept = List.of(), sealed = List.of();
        List<String> residual = List.of();
        boolean complete = false;
        for (String part : body.split(";")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String k = part.substring(0, eq), v = part.substring(eq + 1);
            List<String> items = v.isEmpty() ? List.of() : List.of(v.split(","));
            switch (k) {
                case "kept" -> kept = items.stream().map(Integer::valueOf).toList();
                case "sealed" -> sealed = items.stream().map(Integer::valueOf).toList();
                case "residual" -> residual = items;
                case "complete" -> complete = v.equals("1");
                default -> { }
            }
        }
        return new DescriptorInventory(complete, kept, sealed, residual);
    }

    /** "CapInh=...;CapPrm=...;...;NoNewPrivs=1;Seccomp=2;Seccomp_filters=2", read from the program after execve. */
    static io.aasm.ports.evidence.ProcessAuthority parseAuthority(String body) {
        java.util.Map<String, String> v = new java.util.HashMap<>();
        for (String part : body.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                v.put(part.substring(0, eq), part.substring(eq + 1).trim());
            }
        }
        String seccomp = v.getOrDefault("Seccomp", "");
        String mode = switch (seccomp) {
            case "0" -> "disabled";
            case "1" -> "strict";
            case "2" -> "filter";
            default -> seccomp;
        };
        if (v.containsKey("Seccomp_filters")) {
            mode += " (" + v.get("Seccomp_filters") + " filters)";
        }
        return new io.aasm.ports.evidence.ProcessAuthority(true, v.getOrDefault("CapInh", ""), v.getOrDefault("CapPrm", ""),
                v.getOrDefault("CapEff", ""), v.getOrDefault("CapBnd", ""), v.getOrDefault("CapAmb", ""),
                "1".equals(v.get("NoNewPrivs")), mode, "measured: the launcher read the program's own /proc status "
                + "right after its execve");
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
