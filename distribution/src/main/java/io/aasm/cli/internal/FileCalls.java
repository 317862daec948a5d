package io.aasm.cli.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * The directory-relative file calls Java does not offer (openat, renameat, unlinkat) and the plain
 * ones that go with them on a raw descriptor. Loaded on first use only: a command that writes no
 * report file never loads the native library.
 */
interface FileCalls extends Library {
    FileCalls C = Native.load("c", FileCalls.class);

    int O_WRONLY = 0x1;
    int O_CREAT = 0x40;
    int O_EXCL = 0x80;
    int O_CLOEXEC = 0x80000;
    int O_PATH = 0x200000;
    /** The two flags whose values differ between x86_64 and the generic layout (aarch64, riscv64). */
    int O_DIRECTORY = Flags.GENERIC ? 0x4000 : 0x10000;
    int O_NOFOLLOW = Flags.GENERIC ? 0x8000 : 0x20000;
    int EINTR = 4;
    int EINVAL = 22;

    int open(String path, int flags, int mode);

    int openat(int dirfd, String path, int flags, int mode);

    long write(int fd, byte[] buf, long count);

    int fsync(int fd);

    int close(int fd);

    int renameat(int olddirfd, String oldpath, int newdirfd, String newpath);

    int unlinkat(int dirfd, String path, int flags);

    String strerror(int errnum);

    /** Which flag layout this JVM's architecture uses. */
    final class Flags {
        static final boolean GENERIC = !System.getProperty("os.arch").matches("amd64|x86_64|i386|x86");

        private Flags() {
        }
    }
}
