package io.aasm.backend.sandlock.internal.probe;

import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * IPC scoping, one controlled pair per channel, each effect observed outside the sandbox: a process
 * this JVM started dies of the grandchild's SIGTERM; a listener this JVM started (the guard's
 * {@code probe abstract-listen}) receives the grandchild's token; a System V segment with the
 * grandchild's key appears in the host's /proc/sysvipc/shm. The control differs by the one flag that
 * opens the channel; the denial run has sandlock's defaults.
 */
final class IpcProbe {
    private final ProbeRunner runner;
    private final Path actor;
    private final Path work;

    IpcProbe(ProbeRunner runner, Path actor, Path work) {
        this.runner = runner;
        this.actor = actor;
        this.work = work;
    }

    PrerequisiteStatus run() throws IOException {
        List<String> seen = new ArrayList<>();
        for (PrerequisiteStatus s : List.of(signal(), abstractSocket(), sysv())) {
            if (!(s instanceof PrerequisiteStatus.Satisfied ok)) {
                return s;
            }
            seen.add(ok.observation());
        }
        return new PrerequisiteStatus.Satisfied(String.join("; ", seen));
    }

    private List<String> actorRead() {
        return List.of("--fs-read=" + actor);
    }

    private PrerequisiteStatus signal() throws IOException {
        boolean control = signalReached(List.of("--disable=signal-scope"));
        if (!control) {
            return new PrerequisiteStatus.Unchecked("signal: with --disable=signal-scope the grandchild's SIGTERM did"
                    + " not reach our process; inconclusive");
        }
        return signalReached(List.of())
                ? new PrerequisiteStatus.Unsatisfied("signal: a grandchild's SIGTERM killed a process outside the"
                        + " sandbox under sandlock's default scoping")
                : new PrerequisiteStatus.Satisfied("signal: a grandchild's SIGTERM killed our process with"
                        + " --disable=signal-scope and not without");
    }

    private boolean signalReached(List<String> extra) throws IOException {
        Process target = new ProcessBuilder("/bin/sleep", "30").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            runner.run(extra, "echo started; sh -c 'kill -TERM " + target.pid() + "'; true", Map.of(), work);
            return target.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } finally {
            target.destroyForcibly();
        }
    }

    private PrerequisiteStatus abstractSocket() throws IOException {
        String name = "aasm-probe-" + UUID.randomUUID();
        Process listener = new ProcessBuilder(actor.toString(), "probe", "abstract-listen", name).start();
        StringBuffer got = new StringBuffer();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(listener.getInputStream(),
                    StandardCharsets.UTF_8));
            String first = out.readLine();
            if (!"listening".equals(first)) {
                return new PrerequisiteStatus.Unchecked("abstract_unix: our listener did not start: " + first);
            }
            Thread reader = new Thread(() -> {
                try {
                    for (String l; (l = out.readLine()) != null; ) {
                        got.append(l).append('\n');
                    }
                } catch (IOException e) {
                    // The listener was stopped.
                }
            }, "aasm-sandlock-ipc-probe");
            reader.setDaemon(true);
            reader.start();
            String control = "ctl-" + UUID.randomUUID();
            String denied = "den-" + UUID.randomUUID();
            List<String> flags = new ArrayList<>(actorRead());
            flags.add("--disable=abstract-unix-socket-scope");
            runner.run(flags, script("abstract-connect " + name + " " + control), Map.of(), work);
            if (!await(got, control, 5000)) {
                return new PrerequisiteStatus.Unchecked("abstract_unix: with --disable=abstract-unix-socket-scope no"
                        + " token reached our listener; inconclusive");
            }
            runner.run(actorRead(), script("abstract-connect " + name + " " + denied), Map.of(), work);
            return await(got, denied, 500)
                    ? new PrerequisiteStatus.Unsatisfied("abstract_unix: a grandchild reached our abstract socket"
                            + " under sandlock's default scoping")
                    : new PrerequisiteStatus.Satisfied("abstract_unix: a grandchild's token reached our listener with"
                            + " --disable=abstract-unix-socket-scope and not without");
        } finally {
            listener.destroyForcibly();
        }
    }

    private static boolean await(StringBuffer got, String token, long millis) throws IOException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            if (got.indexOf(token) >= 0) {
                return true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        return got.indexOf(token) >= 0;
    }

    private PrerequisiteStatus sysv() throws IOException {
        int controlKey = 0x4a000000 | (int) (Math.random() * 0xffffff);
        int deniedKey = controlKey ^ 0x00800000;
        try {
            List<String> flags = new ArrayList<>(actorRead());
            flags.add("--extra-allow-syscall=sysv_ipc");
            runner.run(flags, script("sysv-create " + controlKey), Map.of(), work);
            if (!segmentExists(controlKey)) {
                return new PrerequisiteStatus.Unchecked("sysv: with --extra-allow-syscall=sysv_ipc no segment appeared"
                        + " on the host; inconclusive");
            }
            runner.run(actorRead(), script("sysv-create " + deniedKey), Map.of(), work);
            return segmentExists(deniedKey)
                    ? new PrerequisiteStatus.Unsatisfied("sysv: a grandchild created a host System V segment under"
                            + " sandlock's defaults")
                    : new PrerequisiteStatus.Satisfied("sysv: a grandchild's System V segment appeared on the host"
                            + " with --extra-allow-syscall=sysv_ipc and not without");
        } finally {
            remove(controlKey);
            remove(deniedKey);
        }
    }

    private String script(String action) {
        return "echo started; sh -c '" + actor + " probe " + action + "'; true";
    }

    private static boolean segmentExists(int key) throws IOException {
        Path table = Path.of("/proc/sysvipc/shm");
        if (!Files.isReadable(table)) {
            throw new IOException("/proc/sysvipc/shm is not readable");
        }
        return Files.readAllLines(table).stream().skip(1).map(String::strip)
                .anyMatch(l -> l.split("\\s+")[0].equals(Integer.toString(key)));
    }

    private void remove(int key) {
        try {
            new ProcessBuilder(actor.toString(), "probe", "sysv-remove", Integer.toString(key))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start()
                    .waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            // Nothing was created, or it cannot be removed by us either; nothing more to do.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
