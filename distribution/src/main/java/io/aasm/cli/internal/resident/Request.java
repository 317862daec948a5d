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
            throw new IllegalArgumentException("working directory is not absolute: " + cwd);
        }
    }

    /** Parses a payload; a malformed one is an {@link IllegalArgumentException} naming the problem. */
    static Request parse(byte[] payload) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < payload.length; i++) {
            if (payload[i] == 0) {
                parts.add(new String(payload, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start != payload.length) {
            throw new IllegalArgumentException("request does not end with a NUL");
        }
        if (parts.size() < 5 || !parts.get(0).equals("1")) {
            throw new IllegalArgumentException("unsupported request version (expected 1); client and kernel differ");
        }
        String home = parts.get(1);
        String cwd = parts.get(2);
        int argc = count(parts.get(3));
        if (4 + argc + 1 > parts.size()) {
            throw new IllegalArgumentException("request announces " + argc + " arguments but carries fewer");
        }
        List<String> args = parts.subList(4, 4 + argc);
        int envc = count(parts.get(4 + argc));
        if (5 + argc + envc != parts.size()) {
            throw new IllegalArgumentException("request announces " + envc + " environment entries but carries "
                    + (parts.size() - 5 - argc));
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String e : parts.subList(5 + argc, parts.size())) {
            int eq = e.indexOf('=');
            if (eq > 0) {
                env.putIfAbsent(e.substring(0, eq), e.substring(eq + 1));
            }
        }
        return new Request(home, cwd, args, env);
    }

    private static int count(String s) {
        try {
            int n = Integer.parseInt(s);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad count in request: " + s);
        }
    }
}
