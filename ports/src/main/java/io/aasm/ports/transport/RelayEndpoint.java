package io.aasm.ports.transport;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a backend's relay delivers the program's connections: a unix-domain stream socket of this session
 * alone. Every connection must begin with {@code preamble} (the session's credential: the session refuses and
 * records any connection that does not), then carry the program's bytes unchanged in both directions. The
 * preamble is a secret of the supervisor and the relay: it never enters the boundary, a log or a report.
 */
public record RelayEndpoint(Path socket, byte[] preamble) {
    public RelayEndpoint {
        Objects.requireNonNull(socket, "socket");
        if (!socket.isAbsolute()) {
            throw new IllegalArgumentException("the relay socket must be an absolute path: " + socket);
        }
        if (preamble.length < 16 || preamble.length > 64) {
            throw new IllegalArgumentException("a preamble has 16 to 64 bytes, got " + preamble.length);
        }
        preamble = preamble.clone();
    }

    @Override
    public byte[] preamble() {
        return preamble.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RelayEndpoint r && r.socket.equals(socket) && java.util.Arrays.equals(r.preamble, preamble);
    }

    @Override
    public int hashCode() {
        return socket.hashCode();
    }

    /** Never prints the preamble. */
    @Override
    public String toString() {
        return "RelayEndpoint[socket=" + socket + ", preamble=" + preamble.length + " bytes]";
    }
}
