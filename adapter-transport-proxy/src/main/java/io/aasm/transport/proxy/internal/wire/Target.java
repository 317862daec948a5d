package io.aasm.transport.proxy.internal.wire;

import java.util.Locale;
import java.util.Objects;

/**
 * Where a proxy request asks to go: the host as written (brackets of an IPv6 literal removed) and the port,
 * plus, for an absolute-form request, the origin-form target to forward.
 */
public record Target(String host, int port, String originForm) {
    public Target {
        Objects.requireNonNull(host);
        Objects.requireNonNull(originForm);
    }

    /** {@code CONNECT host:port}: the port is required. */
    public static Target authority(String text) throws HttpHead.Malformed {
        return hostPort(text, -1, "");
    }

    /** {@code GET http://host[:port]/path}: only the http scheme (the proxy originates no TLS). */
    public static Target absolute(String text) throws HttpHead.Malformed {
        String lower = text.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("http://")) {
            throw new HttpHead.Malformed(lower.startsWith("https://")
                    ? "an https:// URL sent as a plain request; use CONNECT (HTTPS_PROXY) for https"
                    : "not a proxy request (absolute-form http:// URL or CONNECT expected)");
        }
        String rest = text.substring(7);
        int end = rest.length();
        for (char c : new char[] {'/', '?', '#'}) {
            int i = rest.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        String path = rest.substring(end);
        if (path.startsWith("#")) {
            throw new HttpHead.Malformed("a fragment in a request target");
        }
        if (path.isEmpty() || path.startsWith("?")) {
            path = "/" + path;
        }
        return hostPort(rest.substring(0, end), 80, path);
    }

    private static Target hostPort(String authority, int defaultPort, String origin) throws HttpHead.Malformed {
        if (authority.isEmpty() || authority.indexOf('@') >= 0) {
            throw new HttpHead.Malformed("a request target without a host, or with user information");
        }
        String host;
        String port;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new HttpHead.Malformed("an unterminated IPv6 literal");
            }
            host = authority.substring(1, close);
            String after = authority.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw new HttpHead.Malformed("text after an IPv6 literal");
            }
            port = after.isEmpty() ? "" : after.substring(1);
        } else {
            int colon = authority.lastIndexOf(':');
            if (colon >= 0 && authority.indexOf(':') != colon) {
                throw new HttpHead.Malformed("an IPv6 literal must be in brackets");
            }
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? "" : authority.substring(colon + 1);
        }
        int p;
        if (port.isEmpty()) {
            if (defaultPort < 0) {
                throw new HttpHead.Malformed("CONNECT needs host:port");
            }
            p = defaultPort;
        } else if (port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new HttpHead.Malformed("'" + port + "' is not a port");
        } else {
            p = Integer.parseInt(port);
        }
        if (host.isEmpty()) {
            throw new HttpHead.Malformed("an empty host");
        }
        return new Target(host, p, origin);
    }
}
