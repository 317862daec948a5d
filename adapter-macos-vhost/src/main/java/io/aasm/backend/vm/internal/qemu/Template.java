package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.guest.Hello;
import java.nio.file.Path;

/**
 * A guest booted once and saved right after its agent said hello, before anything was mounted: its RAM file
 * (mapped copy-on-write by every restore, so no launch ever changes it) and its device state. {@code hello}
 * is what the guest reported about itself; {@code bootMillis} how long the cold boot took, spawn to hello.
 */
public record Template(String key, Path dir, Path ram, Path state, Shape shape, Hello hello, long bootMillis) {
}
