package io.aasm.backend.vm.internal.image;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * The arm64 kernel as both hypervisors boot it: an uncompressed {@code Image} (arm64 boot protocol). Debian's
 * {@code vmlinuz-<abi>-arm64} already is one; a gzip-compressed one is unpacked, because Virtualization.framework's
 * Linux boot loader takes only the uncompressed form. The header's magic ("ARM\x64" at 0x38) is checked either way.
 */
final class Arm64Kernel {
    private static final int MAGIC_AT = 0x38;

    private Arm64Kernel() {
    }

    static void extract(Path vmlinuz, Path out) throws IOException {
        byte[] img = Files.readAllBytes(vmlinuz);
        if (img.length > 2 && img[0] == 0x1f && (img[1] & 0xff) == 0x8b) {
            try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(img))) {
                img = in.readAllBytes();
            }
        }
        if (img.length < 0x40 || img[MAGIC_AT] != 'A' || img[MAGIC_AT + 1] != 'R' || img[MAGIC_AT + 2] != 'M'
                || img[MAGIC_AT + 3] != 0x64) {
            throw new IOException(vmlinuz + " is not an arm64 kernel Image (no ARM\\x64 magic at 0x38)");
        }
        Files.write(out, img);
    }
}
