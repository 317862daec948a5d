package io.aasm.cli.internal.resident;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Everything a client can make the resident kernel spend, bounded. Read in one place, from framework
 * properties ({@code conf/framework.properties}; a {@code -Dname=value} in {@code AASM_JAVA_OPTS} wins),
 * with the defaults of the table in {@code docs/resident.md}. A value that is not a positive whole number
 * stops the kernel from starting, naming the property: a typo must not silently mean "unbounded".
 *
 * @param maxConnections connections served at once; one more is refused at accept ({@code B}, exit 75)
 * @param maxLaunches    launches running at once
 * @param launchQueue    run requests waiting for a launch slot; one more is refused ({@code B}, exit 75)
 * @param maxRequestBytes a request's payload; larger is refused before a byte of it is read
 * @param requestTimeoutMs from accept to the request's last byte; a slower client is dropped
 * @param maxArgs        arguments of a run request (counted before anything parses them)
 * @param maxEnv         environment entries of a run request
 * @param maxStringBytes one argument, environment entry, home or working directory (Linux's own
 *                       MAX_ARG_STRLEN: no program can be started with a longer one)
 * @param logMaxBytes    size at which the request log is rotated
 * @param logFiles       request log files kept (the current one included)
 */
record ResidentLimits(int maxConnections, int maxLaunches, int launchQueue, int maxRequestBytes,
        int requestTimeoutMs, int maxArgs, int maxEnv, int maxStringBytes, int logMaxBytes, int logFiles) {
    static final String PREFIX = "aasm.resident.";

    /** The documented defaults (docs/resident.md, "Bounds"). */
    static final ResidentLimits DEFAULTS = new ResidentLimits(64, 32, 32, 2 << 20, 10_000, 10_000, 4096,
            128 << 10, 1 << 20, 3);

    ResidentLimits {
        if (maxConnections < 1 || maxLaunches < 1 || launchQueue < 0 || maxRequestBytes < 1
                || requestTimeoutMs < 1 || maxArgs < 1 || maxEnv < 0 || maxStringBytes < 1 || logMaxBytes < 1
                || logFiles < 1) {
            throw new IllegalArgumentException("resident limits must be positive: " + this);
        }
    }

    /** Threads the connections may use at most: one each, plus one signal reader each while it runs. */
    int maxConnectionThreads() {
        return 2 * maxConnections;
    }

    /** The limits from {@code props} (a framework property lookup); absent names keep their default. */
    static ResidentLimits from(Function<String, String> props) {
        List<String> bad = new ArrayList<>();
        ResidentLimits d = DEFAULTS;
        Reader r = new Reader(props, bad);
        ResidentLimits l = new ResidentLimits(
                r.get("max.connections", d.maxConnections, 1),
                r.get("max.launches", d.maxLaunches, 1),
                r.get("launch.queue", d.launchQueue, 0),
                r.get("max.request.bytes", d.maxRequestBytes, 1),
                r.get("request.timeout.ms", d.requestTimeoutMs, 1),
                r.get("max.args", d.maxArgs, 1),
                r.get("max.env", d.maxEnv, 0),
                r.get("max.string.bytes", d.maxStringBytes, 1),
                r.get("log.max.bytes", d.logMaxBytes, 1),
                r.get("log.files", d.logFiles, 1));
        if (!bad.isEmpty()) {
            throw new IllegalArgumentException("bad resident kernel limits: " + String.join("; ", bad));
        }
        return l;
    }

    private record Reader(Function<String, String> props, List<String> bad) {
        int get(String name, int dflt, int min) {
            String v = props.apply(PREFIX + name);
            if (v == null || v.isBlank()) {
                return dflt;
            }
            try {
                int n = Integer.parseInt(v.strip());
                if (n >= min) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // named below
            }
            bad.add(PREFIX + name + "=" + v.strip() + " is not a whole number from " + min + " to " + Integer.MAX_VALUE);
            return dflt;
        }
    }
}
