package io.aasm.backend.landlockseccomp.internal.launcher;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/** The libc calls the zygote's control channel needs: the JDK has neither SOCK_SEQPACKET nor SCM_RIGHTS. */
interface ZygoteCalls extends Library {
    int AF_UNIX = 1;
    int SOCK_STREAM = 1;
    int SOCK_SEQPACKET = 5;
    int SOCK_NONBLOCK = 0x800;
    int SOCK_CLOEXEC = 0x80000;
    int SOL_SOCKET = 1;
    int SO_PEERCRED = 17;
    int SCM_RIGHTS = 1;
    int MSG_DONTWAIT = 0x40;
    int MSG_NOSIGNAL = 0x4000;
    int O_RDONLY = 0;
    int O_WRONLY = 1;
    int O_CREAT = 0x40;
    int O_TRUNC = 0x200;
    int O_APPEND = 0x400;
    int O_CLOEXEC = 0x80000;
    int EINTR = 4;
    int EAGAIN = 11;

    ZygoteCalls INSTANCE = Native.load("c", ZygoteCalls.class);

    int socket(int domain, int type, int protocol);

    int socketpair(int domain, int type, int protocol, int[] sv);

    long send(int fd, byte[] buf, long len, int flags);

    int bind(int fd, byte[] addr, int len);

    int listen(int fd, int backlog);

    int accept4(int fd, Pointer addr, Pointer len, int flags);

    int getsockopt(int fd, int level, int name, byte[] value, int[] len);

    long sendmsg(int fd, Pointer msghdr, int flags);

    long recv(int fd, byte[] buf, long len, int flags);

    int shutdown(int fd, int how);

    int open(String path, int flags, int mode);

    int close(int fd);
}
