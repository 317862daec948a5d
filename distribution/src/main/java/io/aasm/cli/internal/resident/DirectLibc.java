package io.aasm.cli.internal.resident;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * {@link Libc} with the calls every connection makes bound through JNA's direct mapping: the same C functions
 * with the same signatures, registered once as static native methods ({@code Native.register}) instead of
 * dispatched through a proxy, reflection and boxed arguments per call. {@code errno} stays readable with
 * {@code Native.getLastError()}. The calls made once per kernel (the listening socket, its mode) and
 * {@code syscall(2)}, which is variadic (direct mapping does not support that), keep the interface mapping.
 */
final class DirectLibc implements Libc {
    /** The interface mapping, for the calls made outside a connection's path. */
    private static final class Mapped {
        static final Libc C = Native.load("c", Libc.class);
    }

    /** The C functions themselves, by their own names (not a class named C: here that name is {@code Libc.C}). */
    private static final class Direct {
        static {
            Native.register(Direct.class, "c");
        }

        private Direct() {
        }

        static native int socket(int domain, int type, int protocol);

        static native int accept4(int fd, Pointer addr, Pointer len, int flags);

        static native int getsockopt(int fd, int level, int name, Pointer value, IntByReference len);

        static native long recvmsg(int fd, Pointer msghdr, int flags);

        static native long read(int fd, byte[] buf, long count);

        static native long read(int fd, Pointer buf, long count);

        static native long write(int fd, byte[] buf, long count);

        static native int shutdown(int fd, int how);

        static native int close(int fd);

        static native int geteuid();

        static native int getpid();

        static native int poll(Pointer fds, long nfds, int timeout);
    }

    @Override
    public int socket(int domain, int type, int protocol) {
        return Direct.socket(domain, type, protocol);
    }

    @Override
    public int socketpair(int domain, int type, int protocol, int[] sv) {
        return Mapped.C.socketpair(domain, type, protocol, sv);
    }

    @Override
    public int bind(int fd, Pointer addr, int len) {
        return Mapped.C.bind(fd, addr, len);
    }

    @Override
    public int listen(int fd, int backlog) {
        return Mapped.C.listen(fd, backlog);
    }

    @Override
    public int accept4(int fd, Pointer addr, Pointer len, int flags) {
        return Direct.accept4(fd, addr, len, flags);
    }

    @Override
    public int getsockopt(int fd, int level, int name, Pointer value, IntByReference len) {
        return Direct.getsockopt(fd, level, name, value, len);
    }

    @Override
    public long recvmsg(int fd, Pointer msghdr, int flags) {
        return Direct.recvmsg(fd, msghdr, flags);
    }

    @Override
    public long read(int fd, byte[] buf, long count) {
        return Direct.read(fd, buf, count);
    }

    @Override
    public long read(int fd, Pointer buf, long count) {
        return Direct.read(fd, buf, count);
    }

    @Override
    public long write(int fd, byte[] buf, long count) {
        return Direct.write(fd, buf, count);
    }

    @Override
    public int shutdown(int fd, int how) {
        return Direct.shutdown(fd, how);
    }

    @Override
    public int close(int fd) {
        return Direct.close(fd);
    }

    @Override
    public int chmod(String path, int mode) {
        return Mapped.C.chmod(path, mode);
    }

    @Override
    public int geteuid() {
        return Direct.geteuid();
    }

    @Override
    public int getpid() {
        return Direct.getpid();
    }

    @Override
    public int poll(Pointer fds, long nfds, int timeout) {
        return Direct.poll(fds, nfds, timeout);
    }

    @Override
    public long syscall(long number, long a1, long a2) {
        return Mapped.C.syscall(number, a1, a2);
    }
}
