package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.image.GuestImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * QEMU's command line. A template boot and every restore of it differ only in the RAM mapping (shared and
 * written back to the template file vs. a private copy-on-write view of it), {@code -incoming defer}, and
 * the host folder (and read-only flag) behind each share slot; the device list is identical, as migration
 * requires. Both run with the migration property {@code store-global-state=off}: the saved state then does not
 * record that the template was stopped when it was saved, so a restore runs the guest as soon as the state is
 * loaded, with no {@code cont} to send and no status to poll (docs/vm.md, "The launch, stage by stage").
 */
final class QemuArgs {
    /** Part of every template key: raise it whenever the command line changes shape. */
    static final int VERSION = 3;

    /** What fills each slot; a slot without a share gets the empty placeholder folder, read-only. */
    record Slot(Path hostPath, boolean readOnly) {
    }

    /** A share of a virtiofs launch: its slot (the tag is {@code s<slot>}) and what fills it. */
    record Share(int slot, Path hostPath, boolean readOnly) {
    }

    private QemuArgs() {
    }

    static List<String> command(QemuBinary qemu, GuestImage image, Shape shape, Path ram, boolean template,
                                Path ctlSocket, Path qmpSocket, List<Slot> slots) {
        List<String> a = common(qemu, image, shape, "memory-backend-file,id=mem,size=" + shape.memoryMib() + "M,mem-path="
                + escape(ram) + ",share=" + (template ? "on" : "off"), ctlSocket, qmpSocket);
        a.addAll(List.of("-global", "migration.store-global-state=off"));
        for (int i = 0; i < shape.slots(); i++) {
            Slot s = slots.get(i);
            a.add("-fsdev");
            a.add("local,id=fs" + i + ",path=" + escape(s.hostPath()) + ",security_model=none,multidevs=remap"
                    + (s.readOnly() ? ",readonly=on" : ""));
            a.add("-device");
            a.add("virtio-9p-pci,fsdev=fs" + i + ",mount_tag=s" + i);
        }
        if (!template) {
            a.add("-incoming");
            a.add("defer");
        }
        return a;
    }

    /**
     * A cold boot whose shares are virtiofs, one vhost-user-fs device per share in use (the daemon behind each
     * socket, {@link Virtiofsd}). vhost-user needs the guest's RAM shared with the daemons: an anonymous memfd.
     * Never a template: QEMU 7.2 refuses to migrate a vhost-user-fs device, mounted or not.
     */
    static List<String> virtiofs(QemuBinary qemu, GuestImage image, Shape shape, Path ctlSocket, Path qmpSocket,
                                 List<Virtiofsd.Daemon> daemons) {
        List<String> a = common(qemu, image, shape, "memory-backend-memfd,id=mem,size=" + shape.memoryMib()
                + "M,share=on", ctlSocket, qmpSocket);
        for (Virtiofsd.Daemon d : daemons) {
            a.addAll(List.of("-chardev", "socket,id=vfs" + d.slot() + ",path=" + escape(d.socket()),
                    "-device", "vhost-user-fs-pci,chardev=vfs" + d.slot() + ",tag="
                            + io.aasm.backend.vm.internal.guest.ShareTransport.tag(d.slot())));
        }
        return a;
    }

    private static List<String> common(QemuBinary qemu, GuestImage image, Shape shape, String memory, Path ctlSocket,
                                       Path qmpSocket) {
        List<String> a = new ArrayList<>(List.of(qemu.path().toString(), "-accel",
                shape.accel() == Shape.Accel.TCG ? "tcg,tb-size=128" : "kvm", "-M", qemu.machine(), "-cpu",
                shape.accel() == Shape.Accel.KVM ? "host" : "qemu64", "-smp", Integer.toString(shape.vcpus()), "-m",
                shape.memoryMib() + "M", "-nodefaults", "-no-user-config", "-display", "none", "-serial", "null",
                "-no-reboot", "-sandbox", "on,obsolete=deny,elevateprivileges=deny,resourcecontrol=deny"));
        qemu.firmware().ifPresent(f -> a.addAll(List.of("-bios", f.toString())));
        a.addAll(List.of(
                "-kernel", image.kernel().toString(), "-initrd", image.initramfs().toString(), "-append", image.cmdline(),
                "-object", memory,
                "-machine", "memory-backend=mem",
                "-device", "virtio-serial-pci,id=vser",
                "-chardev", "socket,id=ctl,path=" + escape(ctlSocket),
                "-device", "virtserialport,chardev=ctl,name=ctl",
                "-chardev", "socket,id=qmp,path=" + escape(qmpSocket),
                "-mon", "chardev=qmp,mode=control"));
        return a;
    }

    /** QEMU's option syntax: a comma inside a value is written twice. */
    static String escape(Path p) {
        return p.toString().replace(",", ",,");
    }
}
