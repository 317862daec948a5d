package io.aasm.transport.proxy.internal.session;

import io.aasm.transport.proxy.internal.wire.ChannelReader;
import io.aasm.transport.proxy.internal.wire.Socks5;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;

/**
 * The SOCKS5 face of an {@link Exchange}: method negotiation (no authentication for a relayed session, the
 * session's username and password for a loopback one), one CONNECT request, the decision, the dial, the tunnel.
 */
final class SocksDialog {
    private SocksDialog() {
    }

    static void run(Exchange x, ChannelReader in, ScheduledFuture<?> guard) throws IOException {
        x.at.protocol("socks5");
        in.readByte();
        int method = x.gate.relayed() ? Socks5.NO_AUTH : Socks5.USER_PASS;
        if (!Socks5.offers(in, method)) {
            x.at.reason(x.gate.relayed() ? "the SOCKS5 client offered no method without authentication"
                    : "the SOCKS5 client offered no username/password authentication");
            x.client.write(ByteBuffer.wrap(new byte[] {Socks5.VERSION, (byte) Socks5.NONE_ACCEPTABLE}));
            return;
        }
        x.client.write(ByteBuffer.wrap(new byte[] {Socks5.VERSION, (byte) method}));
        if (method == Socks5.USER_PASS) {
            String[] cred = Socks5.credentials(in);
            boolean ok = x.gate.credentialsMatch(cred[0], cred[1]);
            x.client.write(ByteBuffer.wrap(new byte[] {1, (byte) (ok ? 0 : 1)}));
            if (!ok) {
                x.at.reason("the request did not carry this session's proxy credentials");
                return;
            }
        }
        Socks5.Request req = Socks5.request(in);
        x.at.destination(req.host(), req.port());
        if (req.command() != 1) {
            x.at.reason("SOCKS5 command " + req.command() + (req.command() == 3 ? " (UDP ASSOCIATE)" : req.command() == 2
                    ? " (BIND)" : "") + " is not mediated; only CONNECT is");
            x.client.write(ByteBuffer.wrap(Socks5.reply(Socks5.COMMAND_NOT_SUPPORTED)));
            return;
        }
        Optional<SocketChannel> dialled = x.admitAndDial(req.host(), req.port(), guard,
                why -> x.client.write(ByteBuffer.wrap(Socks5.reply(Socks5.NOT_ALLOWED))),
                e -> x.client.write(ByteBuffer.wrap(Socks5.reply(e.getCause() instanceof ConnectException
                        ? Socks5.CONNECTION_REFUSED : Socks5.HOST_UNREACHABLE))));
        if (dialled.isEmpty()) {
            return;
        }
        try (SocketChannel upstream = dialled.get()) {
            x.client.write(ByteBuffer.wrap(Socks5.reply(Socks5.SUCCEEDED)));
            x.tunnel(upstream, in.leftover());
        }
    }
}
