package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.guest.FrameChannel;
import io.aasm.backend.vm.internal.guest.ShareTransport;
import io.aasm.backend.vm.internal.runtime.Machine;
import java.util.List;

/**
 * A running QEMU guest as a {@link Machine}, restored from a template (9p shares) or cold-booted with one
 * virtiofsd per share. Closing it kills QEMU first, so no daemon is stopped under a guest still using it, then
 * the daemons, then removes the run folder.
 */
record QemuGuest(QemuMachine machine, ShareTransport transport, List<Virtiofsd.Daemon> daemons, RunDirs.Run run,
                 long startMillis) implements Machine {
    QemuGuest {
        daemons = List.copyOf(daemons);
    }

    @Override
    public FrameChannel channel() {
        return machine.channel();
    }

    @Override
    public boolean alive() {
        return machine.process().isAlive();
    }

    @Override
    public void close() {
        machine.close();
        Virtiofsd.stop(daemons);
        run.close();
    }
}
