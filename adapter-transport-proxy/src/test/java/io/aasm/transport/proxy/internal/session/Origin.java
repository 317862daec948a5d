package io.aasm.transport.proxy.internal.session;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in for a remote host, listening on an address of 127.0.0.0/8: it records every byte each
 * connection sends (the effect the tests assert) and, once the sender half-closes or a request head is
 * complete, answers with a fixed reply.
 */
final class Origin implements AutoCloseable {
    private final ServerSocket server;
    private final List<String> received = new ArrayList<>();
    private final byte[] reply;
    private final Thread thread;

    Origin(String address, String reply) throws IOException {
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
        this.reply = reply.getBytes(StandardCharsets.UTF_8);
        this.thread = new Thread(this::serve, "origin-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void serve() {
        while (true) {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                ByteArrayOutputStream got = new ByteArrayOutputStream();
                byte[] b = new byte[8192];
                int n;
                while ((n = in.read(b)) > 0) {
                    got.write(b, 0, n);
                    String text = got.toString(StandardCharsets.ISO_8859_1);
                    if (text.startsWith("GET ") && text.contains("\r\n\r\n")) {
                        break;
                    }
                }
                synchronized (received) {
                    received.add(got.toString(StandardCharsets.ISO_8859_1));
                    received.notifyAll();
                }
                OutputStream out = s.getOutputStream();
                out.write(reply);
                out.flush();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    /** Everything received so far, one entry per finished connection. */
    List<String> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    /** Waits (up to 5 s) for {@code n} finished connections. */
    List<String> await(int n) throws InterruptedException {
        long end = System.currentTimeMillis() + 5000;
        synchronized (received) {
            while (received.size() < n && System.currentTimeMillis() < end) {
                received.wait(100);
            }
            return List.copyOf(received);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
