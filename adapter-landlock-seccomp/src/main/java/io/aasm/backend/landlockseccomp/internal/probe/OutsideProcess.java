package io.aasm.backend.landlockseccomp.internal.probe;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A process outside the probe's tree, holding {@code env}, started through the launcher with no requirement:
 * like every launch it holds no capability, so a confined program may read its /proc entries unless the
 * credential domain hides them. (The supervisor itself cannot serve: as root it holds capabilities, which
 * the confined program never has, so its entries stay unreadable whatever the policy states.)
 */
public final class OutsideProcess implements AutoCloseable {
    private final AutoCloseable launch;
    private final long pid;

    private OutsideProcess(AutoCloseable launch, long pid) {
        this.launch = launch;
        this.pid = pid;
    }

    public static OutsideProcess start(ProbeRunner runner, Map<String, String> env) throws LaunchException,
            IOException, InterruptedException {
        String tag = "7" + ThreadLocalRandom.current().nextInt(100_000, 999_999) + ".25";
        AutoCloseable launch = runner.start(new ExecutionSpec("/bin/sleep", List.of(tag), "/",
                IdentityRef.anonymous(), List.of(), env, CredentialPosture.none(), new Stdio.Inherit()));
        String cmdline = "/bin/sleep\0" + tag + "\0";
        for (int i = 0; i < 200; i++) {
            var found = ProcessHandle.allProcesses().filter(h -> cmdline.equals(read(h.pid()))).findFirst();
            if (found.isPresent()) {
                return new OutsideProcess(launch, found.get().pid());
            }
            Thread.sleep(10);
        }
        close(launch);
        throw new IOException("the outside process did not appear");
    }

    private static String read(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    public long pid() {
        return pid;
    }

    @Override
    public void close() {
        close(launch);
    }

    private static void close(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // the launch ends with the lifeline anyway
        }
    }
}
