package io.aasm.backend.container.internal.host;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Structure;

/**
 * The few C library calls the backend needs on descriptors Java cannot wrap: the caller's standard
 * streams are relayed by descriptor number (those a resident kernel received from its client have no
 * Java stream), polled so a relay can stop without stealing input the caller types after the program
 * ended, and a caller's terminal is put in raw mode while a program of the container owns it.
 */
public interface LibC extends Library {
    LibC INSTANCE = Native.load("c", LibC.class);

    short POLLIN = 0x001;
    short POLLOUT = 0x004;
    int TCSANOW = 0;
    /** struct termios is 60 bytes on glibc for x86_64 and aarch64; a little more is harmless. */
    int TERMIOS_SIZE = 64;
    long TIOCGWINSZ = 0x5413;
    long TIOCGSID = 0x5429;

    int geteuid();

    int getegid();

    int getpgrp();

    int getsid(int pid);

    int isatty(int fd);

    int tcgetpgrp(int fd);

    int tcgetattr(int fd, byte[] termios);

    int tcsetattr(int fd, int when, byte[] termios);

    void cfmakeraw(byte[] termios);

    int ioctl(int fd, NativeLong request, byte[] arg);

    int ioctl(int fd, NativeLong request, int[] arg);

    long read(int fd, byte[] buf, long count);

    long write(int fd, byte[] buf, long count);

    int poll(PollFd[] fds, int nfds, int timeoutMillis);

    /** struct pollfd. */
    @Structure.FieldOrder({"fd", "events", "revents"})
    class PollFd extends Structure {
        public int fd;
        public short events;
        public short revents;
    }
}
