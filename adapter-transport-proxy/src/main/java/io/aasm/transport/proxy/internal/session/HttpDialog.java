package io.aasm.transport.proxy.internal.session;

import io.aasm.transport.proxy.internal.handoff.HandOff;
import io.aasm.transport.proxy.internal.wire.ChannelReader;
import io.aasm.transport.proxy.internal.wire.HttpHead;
import io.aasm.transport.proxy.internal.wire.Target;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;

/**
 * The HTTP face of an {@link Exchange}: one request head (the session's Basic credentials for a loopback
 * session; a relayed one was admitted by its preamble), the decision, the dial, then a tunnel for CONNECT or
 * the rewritten request forwarded for plain HTTP. Refusals are short plain-text answers.
 */
final class HttpDialog {
    private HttpDialog() {
    }

    static void run(Exchange x, ChannelReader in, ScheduledFuture<?> guard) throws IOException {
        x.at.protocol("http");
        HttpHead head = HttpHead.read(in);
        boolean connect = head.method().equals("CONNECT");
        x.protocol = connect ? "http-connect" : "http";
        x.at.protocol(x.protocol);
        if (!x.gate.relayed() && !x.gate.basicMatches(head.field("Proxy-Authorization"))) {
            x.at.reason("the request did not carry this session's proxy credentials");
            write(x.client, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"aasm\"\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n");
            return;
        }
        Target t = connect ? Target.authority(head.target()) : Target.absolute(head.target());
        x.at.destination(t.host(), t.port());
        Optional<SocketChannel> dialled = x.admitAndDial(t.host(), t.port(), guard,
                why -> answer(x, 403, "Forbidden", why),
                e -> answer(x, 502, "Bad Gateway", "dialling failed: " + e.getMessage()));
        if (dialled.isEmpty()) {
            return;
        }
        try (SocketChannel upstream = dialled.get()) {
            if (connect) {
                write(x.client, "HTTP/1.1 200 Connection Established\r\n\r\n");
                x.tunnel(upstream, in.leftover());
            } else {
                byte[] forwarded = head.forOrigin(t.originForm());
                ByteBuffer rest = in.leftover();
                if (x.announced) {
                    HandOff.keep(x.client, upstream); // the proxy rewrites plain HTTP: it stays in the byte path
                }
                Tunnel.run(x.client, upstream, ByteBuffer.allocate(forwarded.length + rest.remaining()).put(forwarded)
                        .put(rest).flip(), x.at, x.pool);
            }
        }
    }

    /** A short plain-text answer; the reason goes in {@code X-Proxy-Error} too, for tools that show headers. */
    static void answer(Exchange x, int code, String phrase, String why) {
        String body = "aasm transport mediation: " + why.replaceAll("[\\r\\n]", " ") + "\n";
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + code + " " + phrase + "\r\nX-Proxy-Error: " + (code == 403 ? "blocked by egress "
                + "policy" : phrase.toLowerCase(Locale.ROOT)) + "\r\nContent-Type: text/plain; charset=utf-8"
                + "\r\nContent-Length: " + b.length + "\r\nConnection: close\r\n\r\n";
        try {
            write(x.client, head);
            x.client.write(ByteBuffer.wrap(b));
        } catch (IOException ignored) {
            // the client is gone; the record says why it was refused
        }
        if (code != 403) {
            x.at.reason(why);
        }
    }

    private static void write(SocketChannel client, String s) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
        while (b.hasRemaining()) {
            client.write(b);
        }
    }
}
