package io.aasm.transport.proxy.internal.handoff;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/** The libc calls the hand-off needs: the JDK can neither send a descriptor nor read a socket pair's report. */
interface NativeSockets extends Library {
    int AF_UNIX = 1;
    int SOCK_STREAM = 1;
    int SOCK_CLOEXEC = 0x80000;
    int SOL_SOCKET = 1;
    int SCM_RIGHTS = 1;
    int MSG_NOSIGNAL = 0x4000;
    int SHUT_RDWR = 2;
    short POLLIN = 1;

    NativeSockets INSTANCE = Native.load("c", NativeSockets.class);

    long sendmsg(int fd, Pointer msghdr, int flags);

    int socketpair(int domain, int type, int protocol, int[] fds);

    long read(int fd, byte[] buf, long count);

    int poll(Pointer fds, long nfds, int timeoutMillis);

    int getsockname(int fd, byte[] addr, int[] len);

    int shutdown(int fd, int how);

    int close(int fd);
}
