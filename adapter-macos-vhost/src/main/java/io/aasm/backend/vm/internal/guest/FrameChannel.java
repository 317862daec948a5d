package io.aasm.backend.vm.internal.guest;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Frames over one byte stream, whatever carries it (a unix socket QEMU connected to, or a helper's pipes).
 * Reads happen on one thread; writes are serialised, so the stdin pump and signal forwarding may share it.
 */
public final class FrameChannel implements AutoCloseable {
    private final InputStream in;
    private final OutputStream out;
    private final AutoCloseable underlying;

    public FrameChannel(InputStream in, OutputStream out, AutoCloseable underlying) {
        this.in = in;
        this.out = out;
        this.underlying = underlying;
    }

    /** The next frame; empty at end of stream (the guest or its hypervisor is gone). */
    public Optional<Frame> read() throws IOException {
        int type = in.read();
        if (type < 0) {
            return Optional.empty();
        }
        byte[] header = in.readNBytes(4);
        if (header.length < 4) {
            throw new EOFException("the guest's frame header was cut short");
        }
        long len = (header[0] & 0xffL) << 24 | (header[1] & 0xff) << 16 | (header[2] & 0xff) << 8 | header[3] & 0xff;
        if (len > FrameType.GUEST_MAX) {
            throw new IOException("the guest sent a " + len + "-byte frame; the protocol allows " + FrameType.GUEST_MAX);
        }
        byte[] payload = in.readNBytes((int) len);
        if (payload.length < len) {
            throw new EOFException("the guest's frame was cut short");
        }
        return Optional.of(new Frame(type, payload));
    }

    public void write(int type, byte[] payload) throws IOException {
        write(type, payload, 0, payload.length);
    }

    public synchronized void write(int type, byte[] payload, int off, int len) throws IOException {
        if (len > FrameType.HOST_MAX) {
            throw new IOException("a " + len + "-byte frame is larger than the protocol allows");
        }
        byte[] header = {(byte) type, (byte) (len >>> 24), (byte) (len >>> 16), (byte) (len >>> 8), (byte) len};
        out.write(header);
        out.write(payload, off, len);
        out.flush();
    }

    @Override
    public void close() {
        try {
            underlying.close();
        } catch (Exception e) {
            // the channel ends with the VM either way
        }
    }
}
