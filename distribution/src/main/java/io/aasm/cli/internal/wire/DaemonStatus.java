package io.aasm.cli.internal.wire;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The resident kernel's answer to a status request ({@code Q}), as one line of text on the wire
 * ({@code running pid=… uptime=…s connections=… socket=…}, which {@code bin/aasm-client} prints as it
 * is) and as the {@code aasm daemon status} outputs. Written and read here only.
 */
public record DaemonStatus(long pid, long uptimeSeconds, long connections, Path socket) {
    private static final Pattern LINE = Pattern.compile("running pid=(\\d+) uptime=(\\d+)s connections=(\\d+) socket=(.+)");

    public DaemonStatus {
        Objects.requireNonNull(socket);
    }

    public String line() {
        return "running pid=" + pid + " uptime=" + uptimeSeconds + "s connections=" + connections + " socket=" + socket;
    }

    /** The status in an answer's text; empty when the text is not a status line (an older kernel's words). */
    public static Optional<DaemonStatus> parse(String text) {
        Matcher m = LINE.matcher(text.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new DaemonStatus(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)), Path.of(m.group(4))));
    }
}
