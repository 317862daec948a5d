package io.aasm.backend.vm.internal.egress;

import io.aasm.backend.vm.internal.guest.FrameChannel;
import io.aasm.backend.vm.internal.guest.FrameType;
import io.aasm.ports.transport.RelayEndpoint;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One of the program's proxy connections on the host: a connection to the launch's mediation session that
 * starts with the session's preamble (the program never sees it), then carries the stream's bytes both ways.
 * Two threads: one reads the session and sends {@code d} frames within the guest's credit, one writes what
 * the guest sent and gives the credit back with {@code a}. The guest never gets more than its window of
 * unacknowledged bytes into this side: a guest that breaks its credit loses the stream.
 */
final class ProxyStream {
    private static final byte[] END = new byte[0];

    private final int id;
    private final FrameChannel channel;
    private final RelayEndpoint endpoint;
    private final LinkedBlockingQueue<byte[]> toSession = new LinkedBlockingQueue<>();
    private final Runnable released;
    private long queued;
    private long unacked;
    private volatile SocketChannel socket;
    private volatile boolean failed;
    private volatile boolean closed;
    private int running = 2;
    private boolean connected;

    ProxyStream(int id, FrameChannel channel, RelayEndpoint endpoint, Runnable released) {
        this.id = id;
        this.channel = channel;
        this.endpoint = endpoint;
        this.released = released;
    }

    void start() {
        thread("aasm-vm-proxy-in-" + id, this::fromSession).start();
        thread("aasm-vm-proxy-out-" + id, this::toSession).start();
    }

    /** Bytes the program sent ({@code D}); false when the guest broke its credit (the stream is ended). */
    synchronized boolean fromGuest(byte[] payload, int off) {
        int n = payload.length - off;
        if (queued + n > FrameType.NET_WINDOW) {
            failed = true;
            close();
            return false;
        }
        queued += n;
        byte[] chunk = new byte[n];
        System.arraycopy(payload, off, chunk, 0, n);
        toSession.add(chunk);
        return true;
    }

    /** The program stopped sending ({@code Z}). */
    void guestEnded() {
        toSession.add(END);
    }

    /** The guest wrote {@code count} of our bytes to the program ({@code A}). */
    synchronized void acked(long count) {
        unacked = Math.max(0, unacked - count);
        notifyAll();
    }

    private void fromSession() {
        ByteBuffer buf = ByteBuffer.allocate(FrameType.GUEST_MAX - 4);
        try {
            SocketChannel s = SocketChannel.open(StandardProtocolFamily.UNIX);
            socket = s;
            s.connect(UnixDomainSocketAddress.of(endpoint.socket()));
            if (closed) {
                throw new IOException("the launch ended while the session was being reached");
            }
            ByteBuffer preamble = ByteBuffer.wrap(endpoint.preamble());
            while (preamble.hasRemaining()) {
                s.write(preamble);
            }
            synchronized (this) { // the writer holds the program's bytes until the preamble is out
                connected = true;
                notifyAll();
            }
            while (true) {
                long room = awaitCredit();
                buf.clear().putInt(id).limit((int) Math.min(buf.capacity(), 4 + room));
                int n = s.read(buf);
                if (n < 0) {
                    break;
                }
                synchronized (this) {
                    unacked += n;
                }
                channel.write(FrameType.NET_IN, buf.array(), 0, buf.position());
            }
        } catch (IOException | InterruptedException e) {
            failed = true; // the session could not be reached or ended: the program sees its connection end
        }
        try {
            channel.write(FrameType.NET_IN_EOF, idBytes());
        } catch (IOException e) {
            // the VM is gone
        }
        synchronized (this) {
            connected = true; // nothing more will connect: the writer may drain (and drop) what it holds
            notifyAll();
        }
        done();
    }

    private synchronized long awaitCredit() throws InterruptedException {
        while (unacked >= FrameType.NET_WINDOW) {
            wait();
        }
        return FrameType.NET_WINDOW - unacked;
    }

    private void toSession() {
        try {
            synchronized (this) {
                while (!connected) {
                    wait();
                }
            }
            while (true) {
                byte[] chunk = toSession.take();
                if (chunk == END) {
                    SocketChannel s = socket;
                    if (s != null && !failed) {
                        s.shutdownOutput();
                    }
                    break;
                }
                if (!failed) {
                    try {
                        ByteBuffer b = ByteBuffer.wrap(chunk);
                        while (b.hasRemaining()) {
                            socket.write(b);
                        }
                    } catch (IOException e) {
                        failed = true; // what follows is acknowledged and dropped, so the guest never stalls
                    }
                }
                synchronized (this) {
                    queued -= chunk.length;
                }
                channel.write(FrameType.NET_IN_ACK, ByteBuffer.allocate(8).putInt(id).putInt(chunk.length).array());
            }
        } catch (IOException | InterruptedException e) {
            // the VM is gone
        }
        done();
    }

    private synchronized void done() {
        if (--running == 0) {
            close();
            released.run();
        }
    }

    /** Ends the connection to the session (the launch is over, or the guest broke the protocol). */
    void close() {
        closed = true;
        SocketChannel s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // closing is all that is left to do
            }
        }
        toSession.add(END);
    }

    private byte[] idBytes() {
        return ByteBuffer.allocate(4).putInt(id).array();
    }

    private static Thread thread(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
