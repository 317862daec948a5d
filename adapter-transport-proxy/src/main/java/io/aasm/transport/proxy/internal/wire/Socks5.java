package io.aasm.transport.proxy.internal.wire;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The SOCKS5 dialog (RFC 1928; username/password sub-negotiation RFC 1929). Only CONNECT is served; a
 * domain-name request carries the name to the proxy, which resolves it ({@code socks5h://}).
 */
public final class Socks5 {
    public static final int VERSION = 5;
    public static final int NO_AUTH = 0x00;
    public static final int USER_PASS = 0x02;
    public static final int NONE_ACCEPTABLE = 0xff;

    public static final int SUCCEEDED = 0x00;
    public static final int GENERAL_FAILURE = 0x01;
    public static final int NOT_ALLOWED = 0x02;
    public static final int HOST_UNREACHABLE = 0x04;
    public static final int CONNECTION_REFUSED = 0x05;
    public static final int COMMAND_NOT_SUPPORTED = 0x07;
    public static final int ADDRESS_NOT_SUPPORTED = 0x08;

    private Socks5() {
    }

    /** The CONNECT request: {@code command} other than 1 is refused by the caller with its own reply. */
    public record Request(int command, String host, int port) {
        public Request {
            Objects.requireNonNull(host);
        }
    }

    /** The methods the client offers, after its version byte (already read). */
    public static boolean offers(ChannelReader in, int method) throws IOException {
        int n = in.readByte();
        boolean found = false;
        for (int i = 0; i < n; i++) {
            found |= in.readByte() == method;
        }
        return found;
    }

    /** RFC 1929: version 1, username, password. */
    public static String[] credentials(ChannelReader in) throws IOException {
        if (in.readByte() != 1) {
            throw new HttpHead.Malformed("bad SOCKS username/password version");
        }
        String user = new String(in.readFully(in.readByte()), StandardCharsets.UTF_8);
        String pass = new String(in.readFully(in.readByte()), StandardCharsets.UTF_8);
        return new String[] {user, pass};
    }

    public static Request request(ChannelReader in) throws IOException {
        if (in.readByte() != VERSION) {
            throw new HttpHead.Malformed("not a SOCKS5 request");
        }
        int cmd = in.readByte();
        in.readByte(); // reserved
        int atyp = in.readByte();
        String host = switch (atyp) {
            case 1 -> InetAddress.getByAddress(in.readFully(4)).getHostAddress();
            case 4 -> InetAddress.getByAddress(in.readFully(16)).getHostAddress();
            case 3 -> new String(in.readFully(in.readByte()), StandardCharsets.ISO_8859_1);
            default -> throw new HttpHead.Malformed("SOCKS address type " + atyp);
        };
        byte[] p = in.readFully(2);
        return new Request(cmd, host, (p[0] & 0xff) << 8 | (p[1] & 0xff));
    }

    /** A reply with an unspecified bound address (0.0.0.0:0): the client has no use for ours. */
    public static byte[] reply(int code) {
        return new byte[] {VERSION, (byte) code, 0, 1, 0, 0, 0, 0, 0, 0};
    }
}
