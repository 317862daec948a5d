package io.aasm.transport.proxy.internal.session;

import io.aasm.transport.proxy.internal.admission.Admission;
import io.aasm.transport.proxy.internal.admission.Verdict;
import io.aasm.transport.proxy.internal.handoff.HandOff;
import io.aasm.transport.proxy.internal.wire.ChannelReader;
import io.aasm.transport.proxy.internal.wire.HttpHead;
import io.aasm.transport.proxy.internal.wire.Socks5;
import io.aasm.transport.proxy.internal.wire.Target;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

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
    private final BooleanSupplier closing;
    private final boolean handOffWanted;
    /** The relay announced the hand-off capability (version {@link HandOff#VERSION}) before the credential. */
    private boolean announced;

    Exchange(SocketChannel client, String launchId, Admission admission, Gate gate, Dialer dialer, DecisionBook book,
             Executor pool, ScheduledExecutorService timer, Runnable done, BooleanSupplier closing,
             boolean handOffWanted) {
        this.closing = closing;
        this.handOffWanted = handOffWanted;
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
            if (gate.relayed() && in.peek() == 0xFF) {
                // written by the relay before the credential, where the program cannot write (PROTOCOL.md, Hand-off)
                byte[] cap = in.readFully(4);
                if (cap[1] != 'A' || cap[2] != 'H' || cap[3] < 1) {
                    at.protocol("relay").reason("the connection began with a malformed relay capability");
                    return;
                }
                announced = cap[3] == HandOff.VERSION && HandOff.UNAVAILABLE.isEmpty();
            }
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
            if (connect) {
                write("HTTP/1.1 200 Connection Established\r\n\r\n");
                tunnel(upstream, in.leftover());
            } else {
                byte[] forwarded = head.forOrigin(t.originForm());
                ByteBuffer rest = in.leftover();
                if (announced) {
                    HandOff.keep(client, upstream); // the proxy rewrites plain HTTP: it stays in the byte path
                }
                Tunnel.run(client, upstream, ByteBuffer.allocate(forwarded.length + rest.remaining()).put(forwarded)
                        .put(rest).flip(), at, pool);
            }
        }
    }

    /**
     * An admitted tunnel whose success answer was written: handed to the relay when it can take it (the proxy
     * leaves the byte path and the relay reports the counts), otherwise carried by the proxy itself.
     */
    void tunnel(SocketChannel upstream, ByteBuffer leftover) throws IOException {
        Optional<HandOff.Outcome> o = announced && handOffWanted ? HandOff.pass(client, upstream, leftover, closing)
                : Optional.empty();
        if (o.isEmpty()) {
            if (announced) {
                HandOff.keep(client, upstream); // the relay splices the proxy's side again, as before hand-off
            }
            Tunnel.run(client, upstream, leftover, at, pool);
            return;
        }
        at.bytesUp += o.get().forwarded();
        o.get().relay().ifPresentOrElse(c -> {
            at.bytesUp += c.up();
            at.bytesDown += c.down();
            if (c.abnormal()) {
                at.reason("the connection ended abnormally (reset, or cut at the launch's end)");
            }
        }, () -> at.reason("the relay ended without reporting the tunnel's byte counts (the launch or the session "
                + "ended first); the counts are only what the proxy forwarded itself"));
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
