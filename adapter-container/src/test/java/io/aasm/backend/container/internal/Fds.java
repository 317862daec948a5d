package io.aasm.backend.container.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.file.Path;

/** Descriptors of the test's own (files and pipes), handed to a launch as a resident kernel would. */
public interface Fds extends Library {
    Fds C = Native.load("c", Fds.class);
    int O_RDONLY = 0;
    int O_WRONLY = 1;
    int O_CREAT = 0100;
    int O_TRUNC = 01000;
    int O_CLOEXEC = 02000000;

    int open(String path, int flags, int mode);

    int close(int fd);

    int pipe2(int[] fds, int flags);

    long write(int fd, byte[] buf, long n);

    long read(int fd, byte[] buf, long n);

    int posix_openpt(int flags);

    int grantpt(int fd);

    int unlockpt(int fd);

    String ptsname(int fd);

    int ioctl(int fd, com.sun.jna.NativeLong request, byte[] arg);

    int tcgetattr(int fd, byte[] termios);

    int O_RDWR = 2;
    int O_NOCTTY = 0400;
    long TIOCSWINSZ = 0x5414;

    static int readFrom(Path p) {
        return C.open(p.toString(), O_RDONLY | O_CLOEXEC, 0);
    }

    static int writeTo(Path p) {
        return C.open(p.toString(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
}
