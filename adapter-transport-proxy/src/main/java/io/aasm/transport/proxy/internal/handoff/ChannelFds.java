package io.aasm.transport.proxy.internal.handoff;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The descriptor number behind a JDK socket channel, which JDK 17 does not expose. It reads the channel
 * implementation's {@code fdVal} field through {@code sun.misc.Unsafe} (module {@code jdk.unsupported} opens it;
 * no {@code --add-opens} is needed), and believes the number only when {@code getsockname(2)} on it names the
 * channel's own local address: a JDK whose internals differ gives no descriptor, and the proxy keeps the tunnel in
 * its own byte path instead of handing over a wrong socket.
 */
final class ChannelFds {
    private static final Object UNSAFE;
    private static final Method GET_INT;
    private static final long OFFSET;
    private static final Class<?> IMPL;
    static final Optional<String> UNAVAILABLE;

    static {
        Object unsafe = null;
        Method getInt = null;
        long offset = -1;
        Class<?> impl = null;
        String why = null;
        try {
            // the boot loader directly: a bundle's class loader does not delegate sun.* packages
            Class<?> u = Class.forName("sun.misc.Unsafe", false, null);
            Field theUnsafe = u.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            unsafe = theUnsafe.get(null);
            impl = Class.forName("sun.nio.ch.SocketChannelImpl", false, null);
            offset = (long) u.getMethod("objectFieldOffset", Field.class).invoke(unsafe, impl.getDeclaredField("fdVal"));
            getInt = u.getMethod("getInt", Object.class, long.class);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            why = "this JDK's socket channels do not show their descriptor: " + e;
        }
        UNSAFE = unsafe;
        GET_INT = getInt;
        OFFSET = offset;
        IMPL = impl;
        UNAVAILABLE = Optional.ofNullable(why);
    }

    private ChannelFds() {
    }

    /** The channel's descriptor, or -1 when it cannot be known for certain. */
    static int of(SocketChannel ch) {
        if (UNAVAILABLE.isPresent() || !IMPL.isInstance(ch) || !ch.isOpen()) {
            return -1;
        }
        try {
            int fd = (int) GET_INT.invoke(UNSAFE, ch, OFFSET);
            return fd >= 0 && namesSame(fd, ch.getLocalAddress()) ? fd : -1;
        } catch (ReflectiveOperationException | IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Whether the socket behind fd has the local address the channel reports (family, port or path). */
    private static boolean namesSame(int fd, SocketAddress local) {
        byte[] sa = new byte[128];
        int[] len = {sa.length};
        if (NativeSockets.INSTANCE.getsockname(fd, sa, len) != 0 || len[0] < 2) {
            return false;
        }
        int family = (sa[0] & 0xff) | (sa[1] & 0xff) << 8;
        if (local instanceof InetSocketAddress in) {
            int port = (sa[2] & 0xff) << 8 | (sa[3] & 0xff);
            return (family == 2 || family == 10) && port == in.getPort();
        }
        if (local instanceof UnixDomainSocketAddress ux && family == NativeSockets.AF_UNIX) {
            int end = 2;
            while (end < Math.min(len[0], sa.length) && sa[end] != 0) {
                end++;
            }
            return new String(sa, 2, end - 2, StandardCharsets.UTF_8).equals(ux.getPath().toString());
        }
        return false;
    }
}
