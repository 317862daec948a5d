package io.aasm.transport.proxy.internal.session;

import io.aasm.transport.proxy.internal.admission.Admission;
import io.aasm.transport.proxy.internal.admission.Verdict;
import io.aasm.transport.proxy.internal.handoff.HandOff;
import io.aasm.transport.proxy.internal.wire.ChannelReader;
import io.aasm.transport.proxy.internal.wire.HttpHead;
import io.aasm.transport.proxy.internal.wire.Socks5;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One client connection: the gate ({@link RelayPreface} for a relayed session), the protocol dialog (first
 * byte 5: {@link SocksDialog}, anything else: {@link HttpDialog}), the tunnel, and exactly one record. The
 * dialog is bounded in time and size; a client that stalls in it is closed and recorded.
 */
final class Exchange implements Runnable {
    static final long DIALOG_SECONDS = 30;

    final SocketChannel client;
    private final Admission admission;
    final Gate gate;
    private final Dialer dialer;
    private final DecisionBook book;
    final Executor pool;
    private final ScheduledExecutorService timer;
    final Attempt at;
    private final Runnable done;
    private final BooleanSupplier closing;
    private final boolean handOffWanted;
    /** The relay announced the hand-off capability (version {@link HandOff#VERSION}) before the credential. */
    boolean announced;
    /** The dialog so far: {@code http}, {@code http-connect} or {@code socks5}. */
    String protocol = "http";

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
            if (gate.relayed()) {
                RelayPreface preface = RelayPreface.read(in, gate);
                if (preface.refusal().isPresent()) {
                    at.protocol("relay").reason(preface.refusal().get());
                    return;
                }
                announced = preface.announced();
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
                HttpDialog.run(this, in, guard);
            }
        } catch (ChannelReader.HeadTooLarge e) {
            HttpDialog.answer(this, 431, "Request Header Fields Too Large", e.getMessage());
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

    private void malformed(String why) {
        if (protocol.equals("socks5")) {
            at.reason("malformed SOCKS5 request: " + why);
            try {
                client.write(ByteBuffer.wrap(Socks5.reply(Socks5.GENERAL_FAILURE)));
            } catch (IOException ignored) {
                // the client is gone
            }
        } else {
            HttpDialog.answer(this, 400, "Bad Request", why);
        }
    }

    /** How a dialog tells its client, in its own protocol, that the destination was refused or unreachable. */
    interface Answer<T> {
        void send(T what) throws IOException;
    }

    /**
     * The decision on the destination and, when admitted, the dial; both are recorded. Empty when refused
     * (answered by {@code refused} with the reason) or when the dial failed (answered by {@code unreachable}).
     */
    Optional<SocketChannel> admitAndDial(String host, int port, ScheduledFuture<?> guard, Answer<String> refused,
                                         Answer<IOException> unreachable) throws IOException {
        Verdict v = admission.decide(host, port);
        if (v instanceof Verdict.Refused r) {
            at.reason(r.reason());
            r.resolved().ifPresent(at::resolved);
            refused.send(r.reason());
            return Optional.empty();
        }
        Verdict.Admitted a = (Verdict.Admitted) v;
        at.admitted(a.grant());
        guard.cancel(false); // the dialog is over: an admitted tunnel may stay quiet as long as it likes
        try {
            return Optional.of(dialer.dial(a.addresses(), port, at));
        } catch (IOException e) {
            at.reason("dialling failed: " + e.getMessage());
            unreachable.send(e);
            return Optional.empty();
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
}
