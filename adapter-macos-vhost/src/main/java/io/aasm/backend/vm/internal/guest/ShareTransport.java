package io.aasm.backend.vm.internal.guest;

/**
 * How a share reaches the guest, named per share in the plan (R_SHARE, version 4): the guest agent mounts
 * either, so the guest image is the same under every hypervisor. QEMU offers both; Virtualization.framework
 * offers virtiofs only.
 */
public enum ShareTransport {
    /** virtio-9p: QEMU's own file server ({@code -fsdev}), which a template snapshot can carry. */
    NINE_P(1, "9p"),
    /** virtiofs: a vhost-user-fs daemon under QEMU, {@code VZVirtioFileSystemDeviceConfiguration} under VZ. */
    VIRTIOFS(2, "virtiofs");

    /** The code R_SHARE carries (SHARE_9P, SHARE_VIRTIOFS in proto.h). */
    public final int code;
    /** The name configuration and evidence use. */
    public final String label;

    ShareTransport(int code, String label) {
        this.code = code;
        this.label = label;
    }

    /** The device tag of a slot, the same for both transports: the guest mounts it by this name. */
    public static String tag(int slot) {
        return "s" + slot;
    }

    public static ShareTransport parse(String s) {
        for (ShareTransport t : values()) {
            if (t.label.equals(s)) {
                return t;
            }
        }
        throw new IllegalArgumentException("share transport must be 9p or virtiofs, got '" + s + "'");
    }
}
