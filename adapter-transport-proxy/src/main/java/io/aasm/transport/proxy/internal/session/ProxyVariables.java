package io.aasm.transport.proxy.internal.session;

import java.util.Map;
import java.util.TreeMap;

/**
 * The usual proxy variables, upper- and lower-case (curl reads only the lower-case {@code http_proxy}; other
 * tools read either): HTTP and HTTPS through the proxy's HTTP face, everything else through its SOCKS5 face
 * with names resolved by the proxy ({@code socks5h}), and loopback left direct ({@code NO_PROXY}).
 */
final class ProxyVariables {
    static final String NO_PROXY = "localhost,127.0.0.1,::1";

    private ProxyVariables() {
    }

    /** {@code authority}: {@code host:port}, optionally with {@code user:password@} in front. */
    static Map<String, String> of(String authority) {
        Map<String, String> env = new TreeMap<>();
        put(env, "http_proxy", "http://" + authority);
        put(env, "https_proxy", "http://" + authority);
        put(env, "all_proxy", "socks5h://" + authority);
        put(env, "no_proxy", NO_PROXY);
        return env;
    }

    private static void put(Map<String, String> env, String lower, String value) {
        env.put(lower, value);
        env.put(lower.toUpperCase(java.util.Locale.ROOT), value);
    }
}
