package io.aasm.backend.vm.internal.qemu;

/**
 * The VM's size and devices, fixed per template: the accelerator, memory, vCPUs and the number of share
 * slots (virtio-9p devices whose host folder is chosen per launch).
 */
public record Shape(Accel accel, int memoryMib, int vcpus, int slots) {
    public enum Accel {
        KVM("kvm"), TCG("tcg");

        public final String token;

        Accel(String token) {
            this.token = token;
        }
    }

    public Shape {
        if (memoryMib < 128 || memoryMib > 65536) {
            throw new IllegalArgumentException("memory must be 128..65536 MiB, got " + memoryMib);
        }
        if (vcpus < 1 || vcpus > 64) {
            throw new IllegalArgumentException("vcpus must be 1..64, got " + vcpus);
        }
        if (slots < 1 || slots > 24) {
            throw new IllegalArgumentException("slots must be 1..24 (the PCI bus has room for about 28 devices)");
        }
    }

    public Shape with(Accel a) {
        return new Shape(a, memoryMib, vcpus, slots);
    }

    public String describe() {
        return accel.token + ", " + memoryMib + " MiB, " + vcpus + " vCPU" + (vcpus == 1 ? "" : "s") + ", " + slots
                + " share slots";
    }
}
