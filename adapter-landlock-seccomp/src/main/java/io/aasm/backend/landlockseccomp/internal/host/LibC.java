package io.aasm.backend.landlockseccomp.internal.host;

import com.sun.jna.Library;
import com.sun.jna.Native;

/** The few libc entry points the Java side needs; everything that installs a boundary lives in the launcher. */
public interface LibC extends Library {
    LibC INSTANCE = Native.load("c", LibC.class);

    long syscall(long number, Object... args);

    int prctl(int option, long arg2, long arg3, long arg4, long arg5);

    int geteuid();

    int getegid();

    int memfd_create(String name, int flags);

    long write(int fd, byte[] buf, long count);

    int fcntl(int fd, int cmd, int arg);

    int getpid();

    int close(int fd);

    int kill(int pid, int sig);
}
