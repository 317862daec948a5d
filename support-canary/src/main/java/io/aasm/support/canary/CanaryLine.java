package io.aasm.support.canary;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The one canary line: {@code nonce=<hex> <domain>=<denied|passed|error>/<errno> ...}, the domains by their
 * wire tokens. Written once, before the program exists, by whatever runs inside the boundary (sandlock's
 * shim, the container's init); how it reaches the supervisor unforged is each backend's channel's business.
 */
public final class CanaryLine {
    private CanaryLine() {
    }

    /**
     * The verdicts of a line that carries this launch's {@code nonce}; empty for another nonce, an unknown
     * domain, a malformed word or a domain given twice, since a line that does not parse proves nothing.
     */
    public static Optional<Map<CapabilityDomain, CanaryVerdict>> parse(String line, String nonce) {
        String[] words = line.strip().split(" ");
        if (words.length == 0 || nonce.isEmpty() || !words[0].equals("nonce=" + nonce)) {
            return Optional.empty();
        }
        Map<CapabilityDomain, CanaryVerdict> out = new EnumMap<>(CapabilityDomain.class);
        for (int i = 1; i < words.length; i++) {
            String[] kv = words[i].split("=", 2);
            String[] v = kv.length == 2 ? kv[1].split("/", 2) : new String[0];
            Optional<CapabilityDomain> d = CapabilityDomain.fromToken(kv[0]);
            Optional<CanaryVerdict.Outcome> o = v.length == 2 ? CanaryVerdict.Outcome.ofWord(v[0]) : Optional.empty();
            if (d.isEmpty() || o.isEmpty() || !v[1].matches("[0-9]{1,4}") || out.containsKey(d.get())) {
                return Optional.empty();
            }
            out.put(d.get(), new CanaryVerdict(o.get(), Integer.parseInt(v[1])));
        }
        return Optional.of(out);
    }

    /** The line for these verdicts, in the domains' report order (what the C writers produce). */
    public static String format(String nonce, Map<CapabilityDomain, CanaryVerdict> verdicts) {
        return "nonce=" + nonce + new EnumMap<>(verdicts).entrySet().stream().map(e -> " " + e.getKey().token() + "="
                + e.getValue().outcome().word() + "/" + e.getValue().errno()).collect(Collectors.joining());
    }
}
