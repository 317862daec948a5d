package io.aasm.backend.landlockseccomp.internal.launcher;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One running {@code aasm-launch serve} (PROTOCOL.md, "Zygote"): executed once from the same sealed launcher
 * binary, connected to this JVM by a {@code SOCK_SEQPACKET} socket that is its lifeline (this end closing, this
 * JVM dying included, ends it). {@link #fork} hands it a launch's stdio and channel spec; it forks a launcher
 * that connects to that channel exactly as a fresh one does. Every failure is an {@link IOException}: the
 * caller starts the launcher directly then, so a dead zygote never fails a launch.
 */
final class Zygote {
    private static final ZygoteCalls C = ZygoteCalls.INSTANCE;
    private static final int OP_LAUNCH = 1, OP_SIGNAL = 2, OP_EXITED = 3;

    private final Process process;
    private final int ctrl;
    private final Object sendLock = new Object();
    private final Queue<CompletableFuture<ForkedLauncher>> pending = new ArrayDeque<>();
    private final Map<Long, ForkedLauncher> children = new ConcurrentHashMap<>();
    private volatile boolean dead;

    private Zygote(Process process, int ctrl) {
        this.process = process;
        this.ctrl = ctrl;
        Thread t = new Thread(this::read, "aasm-native-zygote-" + process.pid());
        t.setDaemon(true);
        t.start();
    }

    /**
     * Executes {@code launcher serve unix:<socket>} and accepts its connection (only from that process);
     * {@code ahead}: the zygote keeps one child forked ahead of the next request.
     */
    static Zygote start(Path launcher, boolean ahead) throws IOException {
        Path dir = LauncherProcess.privateDir();
        Path socket = dir.resolve("z");
        int listener = C.socket(ZygoteCalls.AF_UNIX, ZygoteCalls.SOCK_SEQPACKET | ZygoteCalls.SOCK_CLOEXEC
                | ZygoteCalls.SOCK_NONBLOCK, 0);
        Process p = null;
        try {
            byte[] addr = address(socket);
            if (listener < 0 || C.bind(listener, addr, addr.length) < 0 || C.listen(listener, 1) < 0) {
                throw new IOException("zygote socket: errno " + Native.getLastError());
            }
            java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(launcher.toString(), "serve",
                    "unix:" + socket));
            if (!ahead) {
                cmd.add("no-spare");
            }
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .redirectInput(Redirect.from(new java.io.File("/dev/null"))).redirectOutput(Redirect.DISCARD)
                    .redirectError(Redirect.DISCARD);
            pb.environment().clear();
            p = pb.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            int fd;
            while ((fd = C.accept4(listener, null, null, ZygoteCalls.SOCK_CLOEXEC)) < 0) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException("the zygote did not connect (status " + (p.isAlive() ? "running" : p.exitValue()) + ")");
                }
                Thread.sleep(2);
            }
            if (peerPid(fd) != p.pid()) {
                C.close(fd);
                throw new IOException("a process other than the zygote connected to its socket");
            }
            return new Zygote(p, fd);
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (p != null) {
                p.destroyForcibly();
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof IOException io ? io : new IOException("starting the zygote failed: " + e, e);
        } finally {
            C.close(listener);
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
        }
    }

    /** The request never reached the zygote (a sequenced packet is delivered whole or not at all). */
    static final class NotSent extends IOException {
        NotSent(String message) {
            super(message);
        }
    }

    /** The zygote answered that it forked nothing (fork failed there, or too many children). */
    static final class Declined extends IOException {
        Declined(String message) {
            super(message);
        }
    }

    long pid() {
        return process.pid();
    }

    boolean usable() {
        return !dead && process.isAlive();
    }

    /**
     * Forks a launcher on {@code stdio} for {@code spec}: three descriptors (stdin, stdout, stderr), or four with
     * the launch's channel last (then {@code spec} is {@code fd:3,3}); sent, and then closed by the caller.
     */
    ForkedLauncher fork(int[] stdio, String spec) throws IOException {
        byte[] s = spec.getBytes(StandardCharsets.UTF_8);
        ByteBuffer m = ByteBuffer.allocate(12 + s.length).order(ByteOrder.nativeOrder());
        m.putInt(OP_LAUNCH).putInt(0).putInt(0).put(s);
        CompletableFuture<ForkedLauncher> reply = new CompletableFuture<>();
        synchronized (sendLock) {
            if (dead) {
                throw new NotSent("the zygote is gone");
            }
            pending.add(reply);
            if (!send(m.array(), stdio)) {
                pending.remove(reply);
                end();
                throw new NotSent("the zygote did not take the request: errno " + Native.getLastError());
            }
        }
        try {
            return reply.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Declined d) {
                throw d;
            }
            end();
            throw new IOException("the zygote did not fork: " + e.getMessage(), e);
        } catch (java.util.concurrent.TimeoutException e) {
            end();
            throw new IOException("the zygote did not fork: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the zygote", e);
        }
    }

    boolean signal(long pid, int signal) {
        ByteBuffer m = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
        m.putInt(OP_SIGNAL).putInt((int) pid).putInt(signal);
        synchronized (sendLock) {
            return !dead && send(m.array(), new int[0]);
        }
    }

    /** Cuts the lifeline: the zygote exits; launchers already forked run on, each on its own channel. */
    void end() {
        synchronized (sendLock) {
            if (!dead) {
                dead = true;
                C.shutdown(ctrl, 2);
            }
        }
    }

    private void read() {
        byte[] b = new byte[12];
        ByteBuffer m = ByteBuffer.wrap(b).order(ByteOrder.nativeOrder());
        while (true) {
            long n = C.recv(ctrl, b, b.length, 0);
            if (n < 0 && Native.getLastError() == ZygoteCalls.EINTR) {
                continue;
            }
            if (n != 12) {
                break;
            }
            int op = m.getInt(0), pid = m.getInt(4), value = m.getInt(8);
            if (op == OP_LAUNCH) {
                CompletableFuture<ForkedLauncher> f;
                synchronized (sendLock) {
                    f = pending.poll();
                }
                if (f != null && pid > 0) {
                    ForkedLauncher child = new ForkedLauncher(pid, this);
                    children.put((long) pid, child);
                    f.complete(child);
                } else if (f != null) {
                    f.completeExceptionally(new Declined("the zygote could not fork: errno " + value));
                }
            } else if (op == OP_EXITED) {
                ForkedLauncher child = children.remove((long) pid);
                if (child != null) {
                    child.reaped(value);
                }
            }
        }
        synchronized (sendLock) {
            dead = true;
            pending.forEach(f -> f.completeExceptionally(new IOException("the zygote ended")));
            pending.clear();
        }
        children.values().forEach(ForkedLauncher::orphan);
        children.clear();
        C.close(ctrl);
        process.destroyForcibly();
    }

    /** One message with {@code fds} in SCM_RIGHTS (LP64 layouts of msghdr, iovec and cmsghdr). */
    private boolean send(byte[] data, int[] fds) {
        Memory buf = new Memory(data.length);
        buf.write(0, data, 0, data.length);
        Memory iov = new Memory(16);
        iov.setPointer(0, buf);
        iov.setLong(8, data.length);
        Memory msg = new Memory(56);
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        Memory control = null;
        if (fds.length > 0) {
            long len = 16 + 4L * fds.length;
            control = new Memory((len + 7) & ~7L);
            control.clear();
            control.setLong(0, len);
            control.setInt(8, ZygoteCalls.SOL_SOCKET);
            control.setInt(12, ZygoteCalls.SCM_RIGHTS);
            for (int i = 0; i < fds.length; i++) {
                control.setInt(16 + 4L * i, fds[i]);
            }
            msg.setPointer(32, control);
            msg.setLong(40, control.size());
        }
        long n;
        do {
            n = C.sendmsg(ctrl, msg, ZygoteCalls.MSG_NOSIGNAL);
        } while (n < 0 && Native.getLastError() == ZygoteCalls.EINTR);
        java.lang.ref.Reference.reachabilityFence(buf); // native memory the message points into
        java.lang.ref.Reference.reachabilityFence(iov);
        java.lang.ref.Reference.reachabilityFence(control);
        return n == data.length;
    }

    private static int peerPid(int fd) {
        byte[] cred = new byte[12];
        int[] len = {12};
        if (C.getsockopt(fd, ZygoteCalls.SOL_SOCKET, ZygoteCalls.SO_PEERCRED, cred, len) < 0) {
            return -1;
        }
        return ByteBuffer.wrap(cred).order(ByteOrder.nativeOrder()).getInt(0);
    }

    private static byte[] address(Path socket) throws IOException {
        byte[] path = socket.toString().getBytes(StandardCharsets.UTF_8);
        if (path.length > 107) {
            throw new IOException("zygote socket path too long: " + socket);
        }
        byte[] a = new byte[2 + path.length + 1];
        a[0] = (byte) ZygoteCalls.AF_UNIX; // sa_family_t, little-endian on every Linux this runs on
        System.arraycopy(path, 0, a, 2, path.length);
        return a;
    }
}
