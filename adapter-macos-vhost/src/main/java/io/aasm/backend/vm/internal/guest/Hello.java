package io.aasm.backend.vm.internal.guest;

import java.util.Map;
import java.util.Optional;

/** What the agent said about its guest when it came up (the hello frame). */
public record Hello(int protocol, String kernel, int landlockAbi, boolean cgroup, long initMillis, long portMillis,
                    String problems) {

    public static Hello parse(Frame f) {
        if (f.type() != FrameType.HELLO) {
            throw new IllegalArgumentException("not a hello frame: " + f);
        }
        Map<String, String> m = f.fields();
        return new Hello(num(m, "protocol"), m.getOrDefault("kernel", ""), num(m, "landlock_abi"),
                "1".equals(m.get("cgroup")), num(m, "init_ms"), num(m, "port_ms"), m.getOrDefault("problems", ""));
    }

    private static int num(Map<String, String> m, String key) {
        try {
            return Integer.parseInt(Optional.ofNullable(m.get(key)).orElse("-1").trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Why this guest cannot serve launches, if it cannot. */
    public Optional<String> unusable() {
        if (protocol != FrameType.VERSION) {
            return Optional.of("the guest agent speaks protocol " + protocol + ", this backend " + FrameType.VERSION);
        }
        if (!problems.isBlank()) {
            return Optional.of("the guest came up with problems: " + problems);
        }
        return Optional.empty();
    }
}
