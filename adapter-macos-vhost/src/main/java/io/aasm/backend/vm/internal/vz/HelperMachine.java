package io.aasm.backend.vm.internal.vz;

import io.aasm.backend.vm.internal.guest.FrameChannel;
import io.aasm.backend.vm.internal.qemu.RunDirs;
import io.aasm.backend.vm.internal.runtime.Machine;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One helper process and the guest it runs: its stdin and stdout are the control channel. Killing the helper
 * is the teardown: the framework's VM belongs to the helper's process and ends with it (on macOS: to be
 * confirmed on a Mac; the Linux stand-in's QEMU is the process itself).
 */
final class HelperMachine implements Machine {
    private final Process process;
    private final FrameChannel channel;
    private final RunDirs.Run run;
    private volatile long startMillis;

    HelperMachine(Process process, RunDirs.Run run) {
        this.process = process;
        this.run = run;
        this.channel = new FrameChannel(process.getInputStream(), process.getOutputStream(), () -> {
            process.getOutputStream().close();
            process.getInputStream().close();
        });
    }

    void started(long millis) {
        this.startMillis = millis;
    }

    @Override
    public FrameChannel channel() {
        return channel;
    }

    @Override
    public long startMillis() {
        return startMillis;
    }

    /** Virtualization.framework shares folders only as virtiofs (CONTRACT.md). */
    @Override
    public io.aasm.backend.vm.internal.guest.ShareTransport transport() {
        return io.aasm.backend.vm.internal.guest.ShareTransport.VIRTIOFS;
    }

    @Override
    public boolean alive() {
        return process.isAlive();
    }

    /** The helper's exit status once it has ended by itself within {@code millis}, else -1. */
    int exitWithin(long millis) {
        try {
            return process.waitFor(millis, TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The helper's last lines on stderr, for error messages. */
    String log() {
        try {
            List<String> lines = Files.readAllLines(run.dir().resolve("helper.log"));
            String tail = String.join(" ", lines.subList(Math.max(0, lines.size() - 3), lines.size())).strip();
            return tail.isEmpty() ? "" : " (helper: " + tail + ")";
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel.close();
        run.close();
    }
}
