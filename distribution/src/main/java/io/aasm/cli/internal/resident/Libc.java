package io.aasm.cli.internal.resident;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * The few socket calls the JDK does not offer for Unix sockets: peer credentials (SO_PEERCRED), the
 * peer's pidfd (SO_PEERPIDFD, else pidfd_open) and descriptor passing (SCM_RIGHTS). Structures are
 * laid out by hand (LP64: x86_64 and aarch64 alike).
 */
interface Libc extends Library {
    /**
     * Direct-mapped ({@link DirectLibc}): every connection makes a dozen of these calls, and JNA's interface
     * mapping (a proxy, reflection and boxed arguments per call) cost about as much CPU as the system calls
     * themselves in a profile of the resident kernel.
     */
    Libc C = new DirectLibc();

    int AF_UNIX = 1;
    int SOCK_STREAM = 1;
    int SOCK_CLOEXEC = 0x80000;
    int SOL_SOCKET = 1;
    int SO_PEERCRED = 17;
    /** Linux 6.5 and later: a pidfd of the peer as it was at connect time. */
    int SO_PEERPIDFD = 77;
    /** Same number on every architecture (syscalls from 424 on are unified). */
    long SYS_PIDFD_OPEN = 434;
    short POLLIN = 0x1;
    int SCM_RIGHTS = 1;
    int MSG_CMSG_CLOEXEC = 0x40000000;
    int SHUT_RDWR = 2;
    int EINTR = 4;

    int socket(int domain, int type, int protocol);

    int socketpair(int domain, int type, int protocol, int[] sv);

    int bind(int fd, Pointer addr, int len);

    int listen(int fd, int backlog);

    int accept4(int fd, Pointer addr, Pointer len, int flags);

    int getsockopt(int fd, int level, int name, Pointer value, IntByReference len);

    long recvmsg(int fd, Pointer msghdr, int flags);

    long read(int fd, byte[] buf, long count);

    long read(int fd, Pointer buf, long count);

    long write(int fd, byte[] buf, long count);

    int shutdown(int fd, int how);

    int close(int fd);

    int chmod(String path, int mode);

    int geteuid();

    int getpid();

    int poll(Pointer fds, long nfds, int timeout);

    long syscall(long number, long a1, long a2);
}
