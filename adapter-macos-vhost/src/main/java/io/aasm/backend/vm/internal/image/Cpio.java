package io.aasm.backend.vm.internal.image;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * A reproducible initramfs: the "newc" cpio format with entries in name order, owner root, mtime 0 and
 * inode numbers by position, so the same inputs always give the same bytes.
 */
final class Cpio {
    private record Entry(int mode, byte[] data, int rdevMajor, int rdevMinor) {
    }

    private final Map<String, Entry> entries = new TreeMap<>();

    Cpio dir(String name) {
        entries.put(name, new Entry(0040755, new byte[0], 0, 0));
        return this;
    }

    Cpio file(String name, int perm, byte[] data) {
        entries.put(name, new Entry(0100000 | perm, data.clone(), 0, 0));
        return this;
    }

    Cpio charDevice(String name, int perm, int major, int minor) {
        entries.put(name, new Entry(0020000 | perm, new byte[0], major, minor));
        return this;
    }

    byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int ino = 1;
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            Entry x = e.getValue();
            write(out, ino++, x.mode(), (x.mode() & 0040000) != 0 ? 2 : 1, x.data().length, x.rdevMajor(),
                    x.rdevMinor(), e.getKey());
            out.writeBytes(x.data());
            pad(out);
        }
        write(out, 0, 0, 1, 0, 0, 0, "TRAILER!!!");
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, int ino, int mode, int nlink, int size, int rmaj, int rmin,
                              String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        StringBuilder h = new StringBuilder("070701");
        for (int v : new int[] {ino, mode, 0, 0, nlink, 0, size, 0, 0, rmaj, rmin, n.length + 1, 0}) {
            h.append(String.format("%08x", v));
        }
        out.writeBytes(h.toString().getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(n);
        out.write(0);
        pad(out);
    }

    private static void pad(ByteArrayOutputStream out) {
        while (out.size() % 4 != 0) {
            out.write(0);
        }
    }
}
