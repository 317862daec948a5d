package io.aasm.cli.internal;

import io.aasm.cli.internal.wire.FrameException;
import io.aasm.cli.internal.wire.Frames;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Asks the resident kernel for its status or to stop, over its socket (the JDK speaks Unix sockets). */
final class DaemonClient {
    private DaemonClient() {
    }

    /**
     * Sends a status ({@link Frames#STATUS}) or stop ({@link Frames#STOP}) request; empty when no kernel
     * listens (no socket, or a stale one nobody accepts on). A refusal ({@code E}) is an IOException
     * with the kernel's words.
     */
    static Optional<String> ask(Path sock, byte kind) throws IOException {
        if (!Files.exists(sock)) {
            return Optional.empty();
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            try {
                ch.connect(UnixDomainSocketAddress.of(sock));
            } catch (IOException e) {
                return Optional.empty(); // refused: a stale socket; `daemon start` replaces it
            }
            ByteBuffer request = ByteBuffer.wrap(Frames.request(kind, new byte[0]));
            while (request.hasRemaining()) {
                ch.write(request);
            }
            Frames.Answer a = Frames.answer((b, off, len) -> ch.read(ByteBuffer.wrap(b, off, len)));
            if (a.kind() == Frames.ERROR) {
                throw new IOException(a.text());
            }
            if (a.kind() != Frames.INFO) {
                throw new IOException("unexpected answer '" + (char) a.kind() + "' from the resident kernel at " + sock);
            }
            return Optional.of(a.text());
        } catch (FrameException e) {
            throw new IOException("the resident kernel at " + sock + " answered badly: " + e.getMessage(), e);
        }
    }
}
