package io.aasm.audit.internal;

import java.util.Map;

/**
 * Writes a record's fields as one line of JSON, straight into a buffer. The record is a fixed shape of maps,
 * lists, strings and integers ({@link LaunchRecord}), so going through Jackson's serializer lookup for every
 * value on every launch buys nothing; the output is byte for byte what Jackson's default writer produces
 * ({@code RecordJsonTest} compares the two), so records written before and after read and verify alike.
 */
final class RecordJson {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private RecordJson() {
    }

    static String write(Map<String, ?> fields) {
        StringBuilder out = new StringBuilder(1024);
        value(out, fields);
        return out.toString();
    }

    private static void value(StringBuilder out, Object v) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof String s) {
            string(out, s);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte
                || v instanceof Boolean) {
            out.append(v);
        } else if (v instanceof Map<?, ?> m) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                string(out, String.valueOf(e.getKey()));
                out.append(':');
                value(out, e.getValue());
            }
            out.append('}');
        } else if (v instanceof Iterable<?> list) {
            out.append('[');
            boolean first = true;
            for (Object o : list) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                value(out, o);
            }
            out.append(']');
        } else {
            // A new field type must be added here on purpose, never written in some default form.
            throw new IllegalArgumentException("no JSON form for a record field of type " + v.getClass().getName());
        }
    }

    /** Jackson's default escaping: quote, backslash and control characters; everything else as it is. */
    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
