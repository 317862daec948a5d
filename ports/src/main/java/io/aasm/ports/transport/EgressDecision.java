package io.aasm.ports.transport;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One connection attempt through a mediation session, written once it is over. {@code destination} is the host
 * as the program asked for it (at most {@link #MAX_DESTINATION} characters; it is the program's text, so
 * renderers must treat it as untrusted), {@code resolved} the address the session dialled (or the addresses it
 * refused), {@code grant} the grant that admitted it, {@code reason} why it was denied or why dialling failed.
 * {@code bytesUp} went from the program to the destination, {@code bytesDown} back.
 */
public record EgressDecision(Instant time, String launchId, String protocol, String destination, int port,
                             Optional<String> resolved, EgressVerdict verdict, Optional<String> grant,
                             Optional<String> reason, long bytesUp, long bytesDown, long durationNanos) {
    public static final int MAX_DESTINATION = 255;

    public EgressDecision {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(launchId, "launchId");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(destination, "destination");
        if (destination.length() > MAX_DESTINATION) {
            destination = destination.substring(0, MAX_DESTINATION);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port);
        }
        Objects.requireNonNull(resolved, "resolved");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(grant, "grant");
        Objects.requireNonNull(reason, "reason");
        if (bytesUp < 0 || bytesDown < 0 || durationNanos < 0) {
            throw new IllegalArgumentException("negative count");
        }
    }

    public boolean denied() {
        return verdict == EgressVerdict.DENIED;
    }

    /**
     * The record as one JSON object on one line (no newline): {@code time, launch, protocol, destination, port,
     * resolved, verdict, grant, reason, bytes_up, bytes_down, duration_ms}; absent values are {@code null}.
     * Every string is escaped so that no control character, quote or line separator survives raw.
     */
    public String toJsonLine() {
        StringBuilder b = new StringBuilder(200).append('{');
        field(b, "time", time.toString()).append(',');
        field(b, "launch", launchId).append(',');
        field(b, "protocol", protocol).append(',');
        field(b, "destination", destination).append(',');
        b.append("\"port\":").append(port).append(',');
        field(b, "resolved", resolved.orElse(null)).append(',');
        field(b, "verdict", verdict.token()).append(',');
        field(b, "grant", grant.orElse(null)).append(',');
        field(b, "reason", reason.orElse(null)).append(',');
        b.append("\"bytes_up\":").append(bytesUp).append(",\"bytes_down\":").append(bytesDown);
        b.append(",\"duration_ms\":").append(String.format(java.util.Locale.ROOT, "%.3f", durationNanos / 1e6));
        return b.append('}').toString();
    }

    private static StringBuilder field(StringBuilder b, String name, String value) {
        b.append('"').append(name).append("\":");
        if (value == null) {
            return b.append("null");
        }
        b.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"');
    }
}
