package io.aasm.backend.container.internal;

import io.aasm.testsupport.net.SocketHolders;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A destination server the test owns on 127.0.0.2 (a granted name is pinned to it): it takes one connection,
 * reads everything, and records what crossed it (digests and counts each way) and which processes held the other
 * end of its connection once {@code holdersAfter} bytes had arrived. Only then does it start sending its
 * {@code size} random bytes (or once the program's side ended, if fewer arrived): the program waits for them to
 * the end, so the connection is certainly still open when its holders are looked at, however loaded the machine.
 */
final class Origin implements AutoCloseable {
    /** What crossed the server's end of the connection. */
    record Seen(String receivedSha256, long received, String sentSha256, long sent, String peerHolders) {
    }

    final ServerSocketChannel server;
    private final CompletableFuture<Seen> seen;

    Origin(long size, long holdersAfter) throws IOException {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
        seen = CompletableFuture.supplyAsync(() -> {
            try (SocketChannel c = server.accept()) {
                return exchange(c, size, holdersAfter);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    int port() throws IOException {
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    Seen seen() throws Exception {
        return seen.get(120, TimeUnit.SECONDS);
    }

    /** Whether a connection was accepted at all (false once the server was closed without one). */
    boolean reached() {
        try {
            seen.get(1, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static Seen exchange(SocketChannel c, long size, long holdersAfter) throws Exception {
        CompletableFuture<Void> looked = new CompletableFuture<>();
        CompletableFuture<String> sending = CompletableFuture.supplyAsync(() -> {
            looked.join();
            MessageDigest d = sha256();
            byte[] chunk = new byte[1 << 20];
            SecureRandom random = new SecureRandom();
            try {
                for (long left = size; left > 0; left -= chunk.length) {
                    int n = (int) Math.min(left, chunk.length);
                    random.nextBytes(chunk);
                    d.update(chunk, 0, n);
                    ByteBuffer b = ByteBuffer.wrap(chunk, 0, n);
                    while (b.hasRemaining()) {
                        c.write(b);
                    }
                }
                c.shutdownOutput();
            } catch (IOException e) {
                throw new IllegalStateException("the program stopped reading: " + e.getMessage(), e);
            }
            return HexFormat.of().formatHex(d.digest());
        });
        MessageDigest got = sha256();
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        long received = 0;
        String holders = "";
        for (int n = c.read(b); n >= 0; n = c.read(b)) {
            got.update(b.array(), 0, n);
            received += n;
            b.clear();
            if (!looked.isDone() && received >= holdersAfter) {
                holders = SocketHolders.of(((InetSocketAddress) c.getRemoteAddress()).getPort(),
                        ((InetSocketAddress) c.getLocalAddress()).getPort());
                looked.complete(null);
            }
        }
        looked.complete(null);
        return new Seen(HexFormat.of().formatHex(got.digest()), received, sending.get(), size, holders);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
