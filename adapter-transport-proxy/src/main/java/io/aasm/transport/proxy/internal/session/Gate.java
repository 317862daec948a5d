package io.aasm.transport.proxy.internal.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * What a connection must show to belong to its session. Relayed: the preamble the backend's relay writes first
 * (the program never sees it). Loopback: the session's user and password, in {@code Proxy-Authorization: Basic}
 * or the SOCKS5 username/password exchange (they are in the program's proxy variables, and nowhere else).
 */
final class Gate {
    static final String USER = "aasm";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Optional<byte[]> preamble;
    private final Optional<String> password;

    private Gate(Optional<byte[]> preamble, Optional<String> password) {
        this.preamble = preamble;
        this.password = password;
    }

    static Gate forRelay() {
        byte[] p = new byte[32];
        do {
            RANDOM.nextBytes(p);
        } while (p[0] == (byte) 0xFF); // 0xFF first announces the relay's hand-off capability (RelayPreface)
        return new Gate(Optional.of(p), Optional.empty());
    }

    static Gate forLoopback() {
        byte[] p = new byte[24];
        RANDOM.nextBytes(p);
        return new Gate(Optional.empty(), Optional.of(HexFormat.of().formatHex(p)));
    }

    Optional<byte[]> preamble() {
        return preamble.map(byte[]::clone);
    }

    boolean relayed() {
        return preamble.isPresent();
    }

    boolean preambleMatches(byte[] got) {
        return MessageDigest.isEqual(preamble.orElseThrow(), got);
    }

    /** {@code user:password@}, for the proxy variables of a loopback session. */
    String userInfo() {
        return USER + ":" + password.orElseThrow() + "@";
    }

    boolean basicMatches(Optional<String> header) {
        String expected = "Basic " + Base64.getEncoder().encodeToString((USER + ":" + password.orElseThrow())
                .getBytes(StandardCharsets.UTF_8));
        return header.map(h -> MessageDigest.isEqual(h.strip().getBytes(StandardCharsets.UTF_8),
                expected.getBytes(StandardCharsets.UTF_8))).orElse(false);
    }

    boolean credentialsMatch(String user, String pass) {
        return MessageDigest.isEqual((user + ":" + pass).getBytes(StandardCharsets.UTF_8),
                (USER + ":" + password.orElseThrow()).getBytes(StandardCharsets.UTF_8));
    }
}
