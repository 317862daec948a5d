package io.aasm.cli.internal.resident;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code R} request of the client (wire version 1): NUL-terminated strings "1", home, cwd, argc,
 * argv..., envc, env... {@code home} is the installation the client belongs to. The environment is
 * the caller's, never the kernel's.
 */
record Request(String home, String cwd, List<String> args, Map<String, String> env) {
    Request {
        Objects.requireNonNull(home);
        Objects.requireNonNull(cwd);
        args = List.copyOf(args);
        env = Map.copyOf(env);
        if (!cwd.startsWith("/")) {
            throw new RequestException("cwd", "working directory is not absolute");
        }
    }

    /** Parses a payload with the default limits. */
    static Request parse(byte[] payload) {
        return parse(payload, ResidentLimits.DEFAULTS);
    }

    /**
     * Parses a payload in one pass, refusing a count or a string above {@code limits} as soon as it is
     * seen (before anything else parses the arguments). A malformed one is a {@link RequestException}
     * naming the problem; its words never repeat a string the client sent (the kernel's log holds them).
     */
    static Request parse(byte[] payload, ResidentLimits limits) {
        Cursor c = new Cursor(payload, limits.maxStringBytes());
        if (!"1".equals(c.next("version"))) {
            throw new RequestException("version", "unsupported request version (expected 1); client and kernel differ");
        }
        String home = c.next("home");
        String cwd = c.next("working directory");
        int argc = count(c.next("argument count"), limits.maxArgs(), "arguments", "max.args", "too_many_args");
        List<String> args = new ArrayList<>(argc);
        for (int i = 0; i < argc; i++) {
            args.add(c.next("argument " + (i + 1) + " of the " + argc + " arguments it announces"));
        }
        int envc = count(c.next("environment count"), limits.maxEnv(), "environment entries", "max.env",
                "too_many_env");
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < envc; i++) {
            String e = c.next("environment entry " + (i + 1) + " of the " + envc + " environment entries it announces");
            int eq = e.indexOf('=');
            if (eq > 0) {
                env.putIfAbsent(e.substring(0, eq), e.substring(eq + 1));
            }
        }
        if (!c.atEnd()) {
            throw new RequestException("counts", "request carries more than its " + argc + " arguments and "
                    + envc + " environment entries");
        }
        return new Request(home, cwd, args, env);
    }

    private static int count(String s, int max, String what, String property, String reason) {
        int n;
        try {
            n = s.length() > 10 ? -1 : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 && s.chars().allMatch(ch -> ch >= '0' && ch <= '9') && !s.isEmpty()) {
            n = Integer.MAX_VALUE; // a huge but well-formed count: too many, not malformed
        }
        if (n < 0) {
            throw new RequestException("counts", "bad count of " + what + " in the request");
        }
        if (n > max) {
            throw new RequestException(reason, "too many " + what + ": " + (n == Integer.MAX_VALUE ? "more than "
                    + Integer.MAX_VALUE : n) + ", at most " + max + " (aasm.resident." + property + ")");
        }
        return n;
    }

    /** Walks the NUL-terminated strings of a payload, one at a time. */
    private static final class Cursor {
        private final byte[] p;
        private final int maxString;
        private int at;

        Cursor(byte[] p, int maxString) {
            this.p = p;
            this.maxString = maxString;
        }

        String next(String what) {
            int end = at;
            while (end < p.length && p[end] != 0) {
                end++;
            }
            if (end - at > maxString) {
                throw new RequestException("string_too_long", what + " is " + (end - at) + " bytes long, at most "
                        + maxString + " (aasm.resident.max.string.bytes)");
            }
            if (end == p.length) {
                throw new RequestException("counts", at == p.length
                        ? "request ends before its " + what
                        : "request does not end with a NUL");
            }
            String s = new String(p, at, end - at, StandardCharsets.UTF_8);
            at = end + 1;
            return s;
        }

        boolean atEnd() {
            return at == p.length;
        }
    }
}
