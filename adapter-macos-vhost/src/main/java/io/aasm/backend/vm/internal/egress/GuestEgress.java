package io.aasm.backend.vm.internal.egress;

import io.aasm.backend.vm.internal.guest.Frame;
import io.aasm.backend.vm.internal.guest.FrameChannel;
import io.aasm.backend.vm.internal.guest.FrameType;
import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.ports.transport.RelayEndpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The host side of a guest's proxy port (PROTOCOL.md, "Egress"): every stream the agent opens becomes one
 * connection to the launch's mediation session, preamble first. This is the guest's only way out; the session
 * admits granted destinations alone and records every attempt. The guest is not trusted here: an unknown
 * stream, a repeated id or more than {@link FrameType#NET_MAX_STREAMS} streams get an immediate end.
 */
public final class GuestEgress implements GuestSession.StreamSink, AutoCloseable {
    private final FrameChannel channel;
    private final RelayEndpoint endpoint;
    private final Map<Integer, ProxyStream> streams = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public GuestEgress(FrameChannel channel, RelayEndpoint endpoint) {
        this.channel = channel;
        this.endpoint = endpoint;
    }

    @Override
    public boolean accept(Frame f) {
        int type = f.type();
        if (type != FrameType.NET_OPEN && type != FrameType.NET_OUT && type != FrameType.NET_OUT_EOF
                && type != FrameType.NET_OUT_ACK) {
            return false;
        }
        byte[] p = f.payload();
        if (p.length < 4 || closed) {
            return true;
        }
        int id = ByteBuffer.wrap(p).getInt();
        ProxyStream s = streams.get(id);
        if (type == FrameType.NET_OPEN) {
            if (s != null || streams.size() >= FrameType.NET_MAX_STREAMS) {
                end(id);
                return true;
            }
            ProxyStream fresh = new ProxyStream(id, channel, endpoint, () -> streams.remove(id));
            streams.put(id, fresh);
            fresh.start();
        } else if (s != null && type == FrameType.NET_OUT) {
            s.fromGuest(p, 4);
        } else if (s != null && type == FrameType.NET_OUT_EOF) {
            s.guestEnded();
        } else if (s != null && p.length >= 8) {
            s.acked(ByteBuffer.wrap(p, 4, 4).getInt() & 0xffffffffL);
        }
        return true;
    }

    private void end(int id) {
        try {
            channel.write(FrameType.NET_IN_EOF, ByteBuffer.allocate(4).putInt(id).array());
        } catch (IOException e) {
            // the VM is gone
        }
    }

    /** Open proxy connections right now (for tests and evidence). */
    public int open() {
        return streams.size();
    }

    /** Ends every connection to the session: the launch is over (the VM is being killed). */
    @Override
    public void close() {
        closed = true;
        streams.values().forEach(ProxyStream::close);
    }
}
