package io.aasm.backend.container.internal.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * HTTP/1.0 over the engine's unix socket, one connection per request: the engine (a Go server) then
 * answers without chunked encoding and closes after the response, so a response is simply everything
 * up to end of file. No third-party client: the backend needs a dozen endpoints (docs/container.md).
 */
public final class Http {
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "aasm-container-http-watchdog");
        t.setDaemon(true);
        return t;
    });
    private static final int MAX_BODY = 64 << 20;

    /** A complete response; header names are lower case. */
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public boolean ok() {
            return status >= 200 && status < 300;
        }

        public Optional<String> header(String name) {
            return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
        }
    }

    private final Path socket;

    public Http(Path socket) {
        this.socket = socket;
    }

    public Path socket() {
        return socket;
    }

    SocketChannel connect() throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            ch.close();
            throw new IOException("cannot connect to the engine at " + socket + ": " + e.getMessage(), e);
        }
        return ch;
    }

    /** {@code timeout} zero waits as long as the engine takes (the long-polling wait endpoint). */
    public Response call(String method, String path, Optional<byte[]> body, String contentType, Duration timeout)
            throws IOException {
        SocketChannel ch = connect();
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> deadline = timeout.isZero() ? null : WATCHDOG.schedule(() -> {
            expired.set(true);
            close(ch);
        }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        try (ch) {
            byte[] payload = body.orElse(new byte[0]);
            String head = method + " " + path + " HTTP/1.0\r\nHost: docker\r\n"
                    + (body.isPresent() ? "Content-Type: " + contentType + "\r\n" : "")
                    + "Content-Length: " + payload.length + "\r\n\r\n";
            writeAll(ch, head.getBytes(StandardCharsets.US_ASCII));
            writeAll(ch, payload);
            return parse(readAll(ch));
        } catch (IOException e) {
            if (expired.get()) {
                throw new IOException("the engine did not answer " + method + " " + path + " within "
                        + timeout.toMillis() + " ms", e);
            }
            throw e;
        } finally {
            if (deadline != null) {
                deadline.cancel(false);
            }
        }
    }

    static void writeAll(SocketChannel ch, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static byte[] readAll(SocketChannel ch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(16384);
        while (ch.read(b) >= 0) {
            out.write(b.array(), 0, b.position());
            b.clear();
            if (out.size() > MAX_BODY) {
                throw new IOException("the engine's response exceeds " + MAX_BODY + " bytes");
            }
        }
        return out.toByteArray();
    }

    static Response parse(byte[] raw) throws IOException {
        int end = indexOf(raw, new byte[] {'\r', '\n', '\r', '\n'});
        if (end < 0) {
            throw new IOException("the engine closed the connection without a complete response ("
                    + raw.length + " bytes)");
        }
        String[] lines = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] status = lines[0].split(" ", 3);
        if (status.length < 2 || !status[0].startsWith("HTTP/")) {
            throw new IOException("not an HTTP response from the engine: " + lines[0]);
        }
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        try {
            return new Response(Integer.parseInt(status[1]), headers, body);
        } catch (NumberFormatException e) {
            throw new IOException("bad HTTP status from the engine: " + lines[0], e);
        }
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static void close(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // closing only to wake a blocked reader
        }
    }
}
