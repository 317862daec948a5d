package io.aasm.backend.landlockseccomp.internal.launcher;

import io.aasm.ports.backend.Stdio;
import java.io.File;
import java.lang.ProcessBuilder.Redirect;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How to start the launcher process. {@code wrapper} is prepended to the command (for example
 * {@code setpriv --reuid=65534 ...}); {@code channelOwner} hands the private channel directory to that uid/gid
 * so a launcher running as another user can connect; {@code zygote}, when present, forks the launcher from the
 * resident kernel's pre-started one instead of executing it afresh (only without wrapper or channel owner).
 */
public record LaunchOptions(Redirect stdin, Redirect stdout, Redirect stderr, List<String> wrapper,
        Optional<ChannelOwner> channelOwner, Duration connectTimeout, Optional<ZygoteSupply> zygote) {
    public LaunchOptions {
        Objects.requireNonNull(stdin);
        Objects.requireNonNull(stdout);
        Objects.requireNonNull(stderr);
        wrapper = List.copyOf(wrapper);
        Objects.requireNonNull(channelOwner);
        Objects.requireNonNull(connectTimeout);
        Objects.requireNonNull(zygote);
    }

    /** The user's own stdio, no wrapper. */
    public static LaunchOptions inherit() {
        return new LaunchOptions(Redirect.INHERIT, Redirect.INHERIT, Redirect.INHERIT, List.of(), Optional.empty(),
                Duration.ofSeconds(10), Optional.empty());
    }

    /**
     * The program's stdio as the request states it. Descriptors held for a remote caller (the resident
     * kernel's client) are reopened through /proc/self/fd: a tty, pipe, FIFO or file gives the program
     * the caller's own stream (output in append mode, so nothing is truncated). A socket cannot be
     * reopened; the resident client relays sockets through pipes before sending them.
     */
    public static LaunchOptions of(Stdio stdio) {
        if (stdio instanceof Stdio.Descriptors d) {
            return inherit().withStdio(Redirect.from(fd(d.stdin())), Redirect.appendTo(fd(d.stdout())),
                    Redirect.appendTo(fd(d.stderr())));
        }
        return inherit();
    }

    private static File fd(int fd) {
        return new File("/proc/self/fd/" + fd);
    }

    public LaunchOptions withStdio(Redirect in, Redirect out, Redirect err) {
        return new LaunchOptions(in, out, err, wrapper, channelOwner, connectTimeout, zygote);
    }

    public LaunchOptions withWrapper(List<String> prefix, ChannelOwner owner) {
        return new LaunchOptions(stdin, stdout, stderr, prefix, Optional.of(owner), connectTimeout, zygote);
    }

    /** Forks the launcher from {@code z} where it can (no wrapper, stdio with a descriptor form). */
    public LaunchOptions withZygote(Optional<ZygoteSupply> z) {
        return new LaunchOptions(stdin, stdout, stderr, wrapper, channelOwner, connectTimeout, z);
    }

    public record ChannelOwner(int uid, int gid) {
    }
}
