package io.aasm.backend.landlockseccomp.internal.kernel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

/**
 * The server side of a large transfer through the relay, owned by the test: it sends {@code size} random bytes
 * while it reads everything the program sends, both at once; once the program's half-close arrives it sends
 * the SHA-256 of what it received (so that trailer can only reach the program if the relay propagated the
 * half-close while the other direction stayed open) and closes. Digests are of the bytes as they crossed this
 * end, never of what the program claims.
 */
final class BulkPeer {
    /** What crossed this end: digests in hex and byte counts, each way. */
    record Result(String receivedSha256, long received, String sentSha256, long sent) {
    }

    private BulkPeer() {
    }

    static Result exchange(SocketChannel c, long size) throws Exception {
        c.configureBlocking(true);
        CompletableFuture<String> sending = CompletableFuture.supplyAsync(() -> send(c, size));
        MessageDigest got = sha256();
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        long received = 0;
        int n;
        while ((n = c.read(b)) >= 0) {
            got.update(b.array(), 0, n);
            received += n;
            b.clear();
        }
        String receivedHex = HexFormat.of().formatHex(got.digest());
        String sentHex = sending.get();
        ByteBuffer trailer = ByteBuffer.wrap(receivedHex.getBytes(StandardCharsets.US_ASCII));
        while (trailer.hasRemaining()) {
            c.write(trailer);
        }
        c.shutdownOutput();
        return new Result(receivedHex, received, sentHex, size);
    }

    private static String send(SocketChannel c, long size) {
        MessageDigest d = sha256();
        byte[] chunk = new byte[1 << 20];
        SecureRandom random = new SecureRandom();
        try {
            for (long left = size; left > 0; ) {
                int n = (int) Math.min(left, chunk.length);
                random.nextBytes(chunk);
                d.update(chunk, 0, n);
                ByteBuffer b = ByteBuffer.wrap(chunk, 0, n);
                while (b.hasRemaining()) {
                    c.write(b);
                }
                left -= n;
            }
        } catch (IOException e) {
            throw new IllegalStateException("the program stopped reading: " + e.getMessage(), e);
        }
        return HexFormat.of().formatHex(d.digest());
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The program's side (python3, in the grandchild): sends {@code size} random bytes and half-closes, reads to
     * the end, and writes "sent-digest sent-count received-digest received-count trailer" to its output file.
     */
    static final String CLIENT = String.join("\n",
            "import hashlib, os, socket, sys, threading",
            "port, size, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]",
            "s = socket.create_connection(('127.0.0.1', port))",
            "sent = hashlib.sha256()",
            "def send():",
            "    left = size",
            "    while left > 0:",
            "        chunk = os.urandom(min(left, 1 << 20))",
            "        sent.update(chunk)",
            "        s.sendall(chunk)",
            "        left -= len(chunk)",
            "    s.shutdown(socket.SHUT_WR)",
            "t = threading.Thread(target=send)",
            "t.start()",
            "data = bytearray()",
            "while True:",
            "    b = s.recv(1 << 20)",
            "    if not b:",
            "        break",
            "    data += b",
            "t.join()",
            "body, trailer = bytes(data[:-64]), bytes(data[-64:]).decode('ascii', 'replace')",
            "with open(out, 'w') as f:",
            "    f.write('%s %d %s %d %s' % (sent.hexdigest(), size, hashlib.sha256(body).hexdigest(), len(body), trailer))",
            "");
}
