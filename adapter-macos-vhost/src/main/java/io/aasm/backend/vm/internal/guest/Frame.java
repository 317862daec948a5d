package io.aasm.backend.vm.internal.guest;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** One frame of the host-guest protocol: its type letter and payload. */
public record Frame(int type, byte[] payload) {
    public Frame {
        Objects.requireNonNull(payload);
        if (type < 0 || type > 255) {
            throw new IllegalArgumentException("frame type is one byte: " + type);
        }
    }

    public String text() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    /** A text payload's {@code key=value} lines (and {@code key:rest} lines under their key); later keys win. */
    public Map<String, String> fields() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text().split("\n")) {
            int eq = line.indexOf('=');
            int colon = line.indexOf(':');
            int at = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
            if (at > 0) {
                out.put(line.substring(0, at), line.substring(at + 1));
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "Frame[" + (char) type + ", " + payload.length + " bytes]";
    }
}
