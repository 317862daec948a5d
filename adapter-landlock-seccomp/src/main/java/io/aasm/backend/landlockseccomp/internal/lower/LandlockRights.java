package io.aasm.backend.landlockseccomp.internal.lower;

/** Landlock access bits and which ABI introduced them (uapi/linux/landlock.h). */
public final class LandlockRights {
    public static final long EXECUTE = 1L;
    public static final long WRITE_FILE = 1L << 1;
    public static final long READ_FILE = 1L << 2;
    public static final long READ_DIR = 1L << 3;
    public static final long REMOVE_DIR = 1L << 4;
    public static final long REMOVE_FILE = 1L << 5;
    public static final long MAKE_CHAR = 1L << 6;
    public static final long MAKE_DIR = 1L << 7;
    public static final long MAKE_REG = 1L << 8;
    public static final long MAKE_SOCK = 1L << 9;
    public static final long MAKE_FIFO = 1L << 10;
    public static final long MAKE_BLOCK = 1L << 11;
    public static final long MAKE_SYM = 1L << 12;
    public static final long REFER = 1L << 13;
    public static final long TRUNCATE = 1L << 14;
    public static final long IOCTL_DEV = 1L << 15;

    public static final long NET_BIND_TCP = 1L;
    public static final long NET_CONNECT_TCP = 1L << 1;

    public static final long SCOPE_ABSTRACT_UNIX_SOCKET = 1L;
    public static final long SCOPE_SIGNAL = 1L << 1;

    /** Reading includes executing: a readable file could be copied and run anyway where writes are granted. */
    public static final long READ = EXECUTE | READ_FILE | READ_DIR;

    private static final long WRITE_ABI1 = WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG
            | MAKE_SOCK | MAKE_FIFO | MAKE_BLOCK | MAKE_SYM;

    /** Rights that only make sense on directories; the kernel rejects them in a rule for a file. */
    public static final long DIRECTORY_ONLY = READ_DIR | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG
            | MAKE_SOCK | MAKE_FIFO | MAKE_BLOCK | MAKE_SYM | REFER;

    private LandlockRights() {
    }

    /** Every write-side right the given ABI handles: truncate from 3, refer from 2, device ioctl from 5. */
    public static long write(int abi) {
        long w = WRITE_ABI1;
        if (abi >= 2) {
            w |= REFER;
        }
        if (abi >= 3) {
            w |= TRUNCATE;
        }
        if (abi >= 5) {
            w |= IOCTL_DEV;
        }
        return w;
    }

    public static long read(int abi) {
        return abi >= 1 ? READ : 0;
    }

    public static String describeFs(long mask) {
        StringBuilder b = new StringBuilder();
        String[] names = {"execute", "write_file", "read_file", "read_dir", "remove_dir", "remove_file",
            "make_char", "make_dir", "make_reg", "make_sock", "make_fifo", "make_block", "make_sym", "refer",
            "truncate", "ioctl_dev"};
        for (int i = 0; i < names.length; i++) {
            if ((mask & (1L << i)) != 0) {
                b.append(b.length() == 0 ? "" : ",").append(names[i]);
            }
        }
        return b.toString();
    }
}
