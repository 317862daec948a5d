package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.guest.Hello;
import io.aasm.backend.vm.internal.guest.ShareTransport;
import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.backend.vm.internal.runtime.Machine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A launch whose shares are virtiofs: its daemons, then a cold boot of QEMU with one vhost-user-fs device per
 * share in use, then the agent's hello. No template can hold a vhost-user-fs device in QEMU 7.2 (it blocks
 * migration even unmounted), so every launch pays a boot: the reason 9p through a template stays the Linux
 * default (docs/vm.md). The guest and the plan are the same as under Virtualization.framework, which is what this
 * path is for: the transport the Mac has, tested here.
 */
final class VirtiofsBoot {
    private VirtiofsBoot() {
    }

    static Machine start(QemuBinary qemu, GuestImage image, Shape shape, List<VmLaunch.ShareSlot> shares,
                         Spawner spawner, RunDirs runs, ScheduledExecutorService timers, long bootMillis)
            throws IOException {
        RunDirs.Run run = runs.create();
        long t0 = System.nanoTime();
        List<Virtiofsd.Daemon> daemons = List.of();
        QemuMachine m = null;
        try {
            daemons = Virtiofsd.start(spawner, shares.stream().map(s -> new QemuArgs.Share(s.slot(),
                    Path.of(s.hostPath()), s.readOnly())).toList(), run.dir(), bootMillis);
            m = QemuMachine.bootVirtiofs(qemu, image, shape, daemons, spawner, run.dir(), bootMillis);
            QemuMachine booting = m;
            ScheduledFuture<?> watchdog = timers.schedule(() -> booting.process().destroyForcibly(), bootMillis,
                    TimeUnit.MILLISECONDS);
            Hello hello;
            try {
                hello = new GuestSession(m.channel()).hello();
            } catch (IOException e) {
                throw new IOException("the guest did not come up within " + bootMillis + " ms: " + e.getMessage()
                        + m.log(), e);
            } finally {
                watchdog.cancel(false);
            }
            Optional<String> bad = hello.unusable();
            if (bad.isPresent()) {
                throw new IOException(bad.get());
            }
            return new QemuGuest(m, ShareTransport.VIRTIOFS, daemons, run, (System.nanoTime() - t0) / 1_000_000L);
        } catch (IOException | RuntimeException e) {
            if (m != null) {
                m.close();
            }
            Virtiofsd.stop(daemons);
            run.close();
            throw e;
        }
    }
}
