package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.guest.FrameChannel;
import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.ports.trace.LaunchStages;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One QEMU process and its two connections: the guest's control channel and the monitor. Booted fresh (to
 * make a template) or restored from a template. Killing it is the teardown of everything in the guest.
 */
public final class QemuMachine implements AutoCloseable {
    /** System property: restore through the monitor, as before (for paired measurements only). */
    public static final String DEFERRED = "aasm.vm.restoreDeferred";
    private final Process process;
    private final FrameChannel channel;
    private final Qmp qmp;
    private final Path runDir;

    private QemuMachine(Process process, FrameChannel channel, Qmp qmp, Path runDir) {
        this.process = process;
        this.channel = channel;
        this.qmp = qmp;
        this.runDir = runDir;
    }

    /** A fresh boot for a template: shared RAM in {@code ram}; the caller waits for the hello. */
    static QemuMachine boot(QemuBinary qemu, GuestImage image, Shape shape, Path ram, List<QemuArgs.Slot> slots,
                            Spawner spawner, Path runDir, long connectMillis) throws IOException {
        return start(qemu, image, shape, ram, true, slots, spawner, runDir, connectMillis);
    }

    /**
     * Restores {@code t} with these slots and starts it running: the RAM is the template's, copy-on-write,
     * the device state comes from its state file. Returns once the guest runs. The two monitor commands go out
     * in one write, and the guest then starts by itself when its state is loaded (the state does not say
     * "stopped"): the RESUME event ends the wait, QEMU ending (a failed load exits) ends it with an error. With
     * {@value #DEFERRED} set to true it goes as before (a command per round trip, {@code query-migrate} polled
     * every 2 ms, then {@code cont}), kept to measure the two against each other in one run.
     */
    public static QemuMachine restore(QemuBinary qemu, GuestImage image, Template t, List<QemuArgs.Slot> slots,
                                      Spawner spawner, Path runDir, long connectMillis) throws IOException {
        boolean deferred = Boolean.getBoolean(DEFERRED);
        String source = "exec:cat " + shellQuote(t.state());
        QemuMachine m = start(qemu, image, t.shape(), t.ram(), false, slots, spawner, runDir, connectMillis);
        // a restore that hangs is ended like one that fails: QEMU killed, the monitor's read ends
        CompletableFuture<Void> watchdog = CompletableFuture.runAsync(() -> m.process.destroyForcibly(),
                CompletableFuture.delayedExecutor(connectMillis, TimeUnit.MILLISECONDS));
        try {
            if (deferred) {
                m.qmp.capability("x-ignore-shared", true);
                m.qmp.execute("migrate-incoming", Map.of("uri", source));
                m.qmp.awaitMigration(2);
                LaunchStages.mark("vm_migrate");
                m.qmp.execute("cont", Map.of()); // a no-op once running: the state no longer says "stopped"
            } else {
                m.qmp.restore(source);
            }
            watchdog.cancel(false);
            LaunchStages.mark("vm_resume");
            return m;
        } catch (IOException | RuntimeException e) {
            watchdog.cancel(false);
            m.close();
            throw new IOException("restoring the template failed: " + e.getMessage() + m.log(), e);
        } catch (InterruptedException e) {
            watchdog.cancel(false);
            m.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while restoring the template");
        }
    }

    private static QemuMachine start(QemuBinary qemu, GuestImage image, Shape shape, Path ram, boolean template,
                                     List<QemuArgs.Slot> slots, Spawner spawner, Path runDir, long connectMillis)
            throws IOException {
        return start(QemuArgs.command(qemu, image, shape, ram, template, runDir.resolve("ctl.sock"),
                runDir.resolve("qmp.sock"), slots), spawner, runDir, connectMillis);
    }

    /** A cold boot with virtiofs shares (their daemons already listening); the caller waits for the hello. */
    static QemuMachine bootVirtiofs(QemuBinary qemu, GuestImage image, Shape shape, List<Virtiofsd.Daemon> daemons,
                                    Spawner spawner, Path runDir, long connectMillis) throws IOException {
        return start(QemuArgs.virtiofs(qemu, image, shape, runDir.resolve("ctl.sock"), runDir.resolve("qmp.sock"),
                daemons), spawner, runDir, connectMillis);
    }

    private static QemuMachine start(List<String> cmd, Spawner spawner, Path runDir, long connectMillis)
            throws IOException {
        Path ctlPath = runDir.resolve("ctl.sock");
        Path qmpPath = runDir.resolve("qmp.sock");
        try (Listener ctl = new Listener(ctlPath); Listener mon = new Listener(qmpPath)) {
            Process p = spawner.start(cmd, Map.of("PATH", "/usr/bin:/bin", "LANG", "C"), runDir.resolve("qemu.log"));
            LaunchStages.mark("vm_spawn");
            try {
                SocketChannel c = ctl.accept(connectMillis, p);
                SocketChannel q = mon.accept(connectMillis, p);
                FrameChannel ch = new FrameChannel(DuplexStreams.input(c), DuplexStreams.output(c), c);
                QemuMachine m = new QemuMachine(p, ch, new Qmp(q), runDir);
                LaunchStages.mark("vm_connect"); // both sockets accepted, the monitor greeted
                return m;
            } catch (IOException | RuntimeException e) {
                p.destroyForcibly();
                throw new IOException(e.getMessage() + log(runDir), e);
            }
        }
    }

    public FrameChannel channel() {
        return channel;
    }

    Qmp qmp() {
        return qmp;
    }

    public Process process() {
        return process;
    }

    /** QEMU's own diagnostics (its stderr), for error messages. */
    public String log() {
        return log(runDir);
    }

    private static String log(Path runDir) {
        try {
            String s = Files.readString(runDir.resolve("qemu.log")).strip();
            return s.isEmpty() ? "" : " (QEMU: " + s.replace('\n', ' ') + ")";
        } catch (IOException e) {
            return "";
        }
    }

    /** SIGKILL and reap: the guest, the program and all of its tree end here. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel.close();
        qmp.close();
    }

    private static String shellQuote(Path p) {
        return "'" + p.toString().replace("'", "'\\''") + "'";
    }
}
