package io.aasm.transport.proxy.internal.session;

import io.aasm.transport.proxy.internal.admission.Admission;
import io.aasm.transport.proxy.internal.admission.Verdict;
import io.aasm.transport.proxy.internal.wire.ChannelReader;
import io.aasm.transport.proxy.internal.wire.HttpHead;
import io.aasm.transport.proxy.internal.wire.Socks5;
import io.aasm.transport.proxy.internal.wire.Target;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One client connection: the gate, the protocol dialog (first byte 5: SOCKS5, anything else: an HTTP request
 * head), the decision, the dial, the tunnel, and exactly one record. The dialog is bounded in time and size; a
 * client that stalls in it is closed and recorded.
 */
final class Exchange implements Runnable {
    static final long DIALOG_SECONDS = 30;

    final SocketChannel client;
    final Admission admission;
    final Gate gate;
    final Dialer dialer;
    private final DecisionBook book;
    final Executor pool;
    private final ScheduledExecutorService timer;
    final Attempt at;
    private final Runnable done;

    Exchange(SocketChannel client, String launchId, Admission admission, Gate gate, Dialer dialer, DecisionBook book,
             Executor pool, ScheduledExecutorService timer, Runnable done) {
        this.client = client;
        this.admission = admission;
        this.gate = gate;
        this.dialer = dialer;
        this.book = book;
        this.pool = pool;
        this.timer = timer;
        this.at = new Attempt(launchId);
        this.done = done;
    }

    @Override
    public void run() {
        ScheduledFuture<?> guard = timer.schedule(() -> Tunnel.close(client), DIALOG_SECONDS, TimeUnit.SECONDS);
        boolean record = true;
        try {
            ChannelReader in = new ChannelReader(client, HttpHead.MAX_BYTES);
            if (gate.relayed() && !gate.preambleMatches(in.readFully(gate.preamble().orElseThrow().length))) {
                at.protocol("relay").reason("the connection did not carry this session's relay credential");
                return;
            }
            int first = in.peek();
            if (first < 0) {
                record = false; // opened and closed without a request: no attempt to record
                return;
            }
            if (first == Socks5.VERSION) {
                protocol = "socks5";
                SocksDialog.run(this, in, guard);
            } else {
                http(in, guard);
            }
        } catch (ChannelReader.HeadTooLarge e) {
            answer(431, "Request Header Fields Too Large", e.getMessage());
        } catch (HttpHead.Malformed e) {
            malformed(e.getMessage());
        } catch (IOException e) {
            at.reason(guard.isDone() ? "the client sent no complete request within " + DIALOG_SECONDS + " s"
                    : "the client connection failed: " + e.getMessage());
        } finally {
            guard.cancel(false);
            // recorded before the client sees the end, so records are in the order the program saw its answers
            if (record) {
                book.add(at.done());
            }
            Tunnel.close(client);
            done.run();
        }
    }

    /** The dialog so far: {@code http}, {@code http-connect} or {@code socks5}. */
    private String protocol = "http";

    private void malformed(String why) {
        if (protocol.equals("socks5")) {
            at.reason("malformed SOCKS5 request: " + why);
            try {
                client.write(ByteBuffer.wrap(Socks5.reply(Socks5.GENERAL_FAILURE)));
            } catch (IOException ignored) {
                // the client is gone
            }
        } else {
            answer(400, "Bad Request", why);
        }
    }

    private void http(ChannelReader in, ScheduledFuture<?> guard) throws IOException {
        at.protocol("http");
        HttpHead head = HttpHead.read(in);
        boolean connect = head.method().equals("CONNECT");
        protocol = connect ? "http-connect" : "http";
        at.protocol(protocol);
        if (!gate.relayed() && !gate.basicMatches(head.field("Proxy-Authorization"))) {
            at.reason("the request did not carry this session's proxy credentials");
            write("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"aasm\"\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n");
            return;
        }
        Target t = connect ? Target.authority(head.target()) : Target.absolute(head.target());
        at.destination(t.host(), t.port());
        Verdict v = admission.decide(t.host(), t.port());
        if (v instanceof Verdict.Refused r) {
            at.reason(r.reason());
            r.resolved().ifPresent(at::resolved);
            answer(403, "Forbidden", r.reason());
            return;
        }
        Verdict.Admitted a = (Verdict.Admitted) v;
        at.admitted(a.grant());
        guard.cancel(false);
        SocketChannel upstream;
        try {
            upstream = dialer.dial(a.addresses(), t.port(), at);
        } catch (IOException e) {
            at.reason("dialling failed: " + e.getMessage());
            answer(502, "Bad Gateway", "dialling failed: " + e.getMessage());
            return;
        }
        try (upstream) {
            ByteBuffer first;
            if (connect) {
                write("HTTP/1.1 200 Connection Established\r\n\r\n");
                first = in.leftover();
            } else {
                byte[] forwarded = head.forOrigin(t.originForm());
                ByteBuffer rest = in.leftover();
                first = ByteBuffer.allocate(forwarded.length + rest.remaining()).put(forwarded).put(rest).flip();
            }
            Tunnel.run(client, upstream, first, at, pool);
        }
    }

    /** A short plain-text answer; the reason goes in {@code X-Proxy-Error} too, for tools that show headers. */
    private void answer(int code, String phrase, String why) {
        String body = "aasm transport mediation: " + why.replaceAll("[\\r\\n]", " ") + "\n";
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + code + " " + phrase + "\r\nX-Proxy-Error: " + (code == 403 ? "blocked by egress "
                + "policy" : phrase.toLowerCase(java.util.Locale.ROOT)) + "\r\nContent-Type: text/plain; charset=utf-8"
                + "\r\nContent-Length: " + b.length + "\r\nConnection: close\r\n\r\n";
        try {
            write(head);
            client.write(ByteBuffer.wrap(b));
        } catch (IOException ignored) {
            // the client is gone; the record says why it was refused
        }
        if (code != 403) {
            at.reason(why);
        }
    }

    private void write(String s) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
        while (b.hasRemaining()) {
            client.write(b);
        }
    }
}
