package io.aasm.transport.proxy.internal.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * An HTTP/1.x request head as a proxy receives it: the request line and the header fields in order. Bounded:
 * at most {@link #MAX_BYTES} bytes and {@link #MAX_FIELDS} fields; obsolete line folding is refused.
 */
public record HttpHead(String method, String target, String version, List<Field> fields) {
    public static final int MAX_BYTES = 16 * 1024;
    public static final int MAX_FIELDS = 100;

    public record Field(String name, String value) {
        public Field {
            Objects.requireNonNull(name);
            Objects.requireNonNull(value);
        }
    }

    public HttpHead {
        Objects.requireNonNull(method);
        Objects.requireNonNull(target);
        Objects.requireNonNull(version);
        fields = List.copyOf(fields);
    }

    /** Reads one head; {@link Malformed} when it is not an HTTP/1.x request. */
    public static HttpHead read(ChannelReader in) throws IOException {
        String line = in.readLine(MAX_BYTES);
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || parts[0].isEmpty() || !parts[0].chars().allMatch(c -> c >= 'A' && c <= 'Z')
                || !(parts[2].equals("HTTP/1.1") || parts[2].equals("HTTP/1.0")) || parts[1].isEmpty()) {
            throw new Malformed("not an HTTP/1.x request line");
        }
        List<Field> fields = new ArrayList<>();
        int total = line.length();
        while (true) {
            String f = in.readLine(MAX_BYTES);
            total += f.length() + 2;
            if (total > MAX_BYTES) {
                throw new ChannelReader.HeadTooLarge("the request head is longer than " + MAX_BYTES + " bytes");
            }
            if (f.isEmpty()) {
                break;
            }
            if (f.charAt(0) == ' ' || f.charAt(0) == '\t') {
                throw new Malformed("obsolete header line folding");
            }
            int colon = f.indexOf(':');
            if (colon <= 0 || f.substring(0, colon).chars().anyMatch(c -> c <= ' ' || c >= 0x7f)) {
                throw new Malformed("a header field without a valid name");
            }
            if (fields.size() == MAX_FIELDS) {
                throw new ChannelReader.HeadTooLarge("more than " + MAX_FIELDS + " header fields");
            }
            fields.add(new Field(f.substring(0, colon), f.substring(colon + 1).strip()));
        }
        return new HttpHead(parts[0], parts[1], parts[2], fields);
    }

    public Optional<String> field(String name) {
        return fields.stream().filter(f -> f.name().equalsIgnoreCase(name)).map(Field::value).findFirst();
    }

    /**
     * The head to send to an origin server for an absolute-form request: the request line in origin form, the
     * fields minus those addressed to the proxy or to this hop, and {@code Connection: close} (one request per
     * connection, so a second request on it cannot slip past the decision for the first).
     */
    public byte[] forOrigin(String originTarget) {
        StringBuilder sb = new StringBuilder(method).append(' ').append(originTarget).append(' ').append(version)
                .append("\r\n");
        List<String> hop = new ArrayList<>(List.of("proxy-authorization", "proxy-connection", "connection",
                "keep-alive", "te", "trailer", "upgrade"));
        field("Connection").ifPresent(v -> {
            for (String token : v.split(",")) {
                hop.add(token.strip().toLowerCase(Locale.ROOT));
            }
        });
        for (Field f : fields) {
            if (!hop.contains(f.name().toLowerCase(Locale.ROOT))) {
                sb.append(f.name()).append(": ").append(f.value()).append("\r\n");
            }
        }
        sb.append("Connection: close\r\n\r\n");
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Not an HTTP request the proxy can serve: answered with 400 and recorded. */
    public static final class Malformed extends IOException {
        private static final long serialVersionUID = 1L;

        public Malformed(String message) {
            super(message);
        }
    }
}
