package io.aasm.backend.nativ.internal.launcher;

import java.lang.ProcessBuilder.Redirect;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How to start the launcher process. {@code wrapper} is prepended to the command (for example
 * {@code setpriv --reuid=65534 ...}); {@code channelOwner} hands the private channel directory to that uid/gid
 * so a launcher running as another user can connect.
 */
public record LaunchOptions(Redirect stdin, Redirect stdout, Redirect stderr, List<String> wrapper,
        Optional<ChannelOwner> channelOwner, Duration connectTimeout) {
    public LaunchOptions {
        Objects.requireNonNull(stdin);
        Objects.requireNonNull(stdout);
        Objects.requireNonNull(stderr);
        wrapper = List.copyOf(wrapper);
        Objects.requireNonNull(channelOwner);
        Objects.requireNonNull(connectTimeout);
    }

    /** The user's own stdio, no wrapper. */
    public static LaunchOptions inherit() {
        return new LaunchOptions(Redirect.INHERIT, Redirect.INHERIT, Redirect.INHERIT, List.of(), Optional.empty(),
                Duration.ofSeconds(10));
    }

    public LaunchOptions withStdio(Redirect in, Redirect out, Redirect err) {
        return new LaunchOptions(in, out, err, wrapper, channelOwner, connectTimeout);
    }

    public LaunchOptions withWrapper(List<String> prefix, ChannelOwner owner) {
        return new LaunchOptions(stdin, stdout, stderr, prefix, Optional.of(owner), connectTimeout);
    }

    public record ChannelOwner(int uid, int gid) {
    }
}
