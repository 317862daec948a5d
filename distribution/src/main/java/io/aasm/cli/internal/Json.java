package io.aasm.cli.internal;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The command layer's {@code --json} output: a tree of maps (insertion order kept), collections,
 * strings, numbers, booleans and null, written as indented JSON (RFC 8259) with a newline at the end.
 * Deterministic, so the output can be diffed. Every document starts with its {@code schema} id (see
 * {@code docs/schema/}). Hand-written because the command bundle imports no JSON library.
 */
final class Json {
    private Json() {
    }

    /** An object that keeps the order fields are put in. */
    static Map<String, Object> object(String schema) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (schema != null) {
            m.put("schema", schema);
        }
        return m;
    }

    static Object orNull(Optional<?> o) {
        return o.orElse(null);
    }

    static String render(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, "");
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, String indent) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            string(sb, s);
        } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
            sb.append(v);
        } else if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            String inner = indent + "  ";
            sb.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(inner);
                string(sb, (String) e.getKey());
                sb.append(": ");
                write(sb, e.getValue(), inner);
                sb.append(++i < m.size() ? ",\n" : "\n");
            }
            sb.append(indent).append('}');
        } else if (v instanceof Collection<?> c) {
            if (c.isEmpty()) {
                sb.append("[]");
                return;
            }
            String inner = indent + "  ";
            sb.append("[\n");
            int i = 0;
            for (Object o : c) {
                sb.append(inner);
                write(sb, o, inner);
                sb.append(++i < c.size() ? ",\n" : "\n");
            }
            sb.append(indent).append(']');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    // control characters, and the two JavaScript line terminators, never raw
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
