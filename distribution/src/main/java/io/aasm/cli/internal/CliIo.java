package io.aasm.cli.internal;

import io.aasm.ports.backend.Stdio;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Everything one command invocation talks to, whichever face called it: streams, the caller's
 * environment and working directory, the distribution home (for the default policy), and the signal
 * hand-off of the headless launcher ({@code firstSignal} set by a handler before launch,
 * {@code onSignal} installed by the command once a program runs), and where the program's stdio goes
 * (inherited, or the client's descriptors held by the resident kernel), and aasm's own paths that no
 * launch may write ({@code aasm.protected.paths}, shown by {@code aasm version}).
 */
record CliIo(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, String cwd,
             Optional<Path> home, String version, AtomicInteger firstSignal,
             AtomicReference<IntConsumer> onSignal, List<String> frameworkErrors, Stdio stdio,
             List<String> protectedPaths) {

    /** The program inherits this process's own stdio (cold CLI, Gogo). */
    CliIo(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, String cwd, Optional<Path> home,
          String version, AtomicInteger firstSignal, AtomicReference<IntConsumer> onSignal, List<String> frameworkErrors,
          List<String> protectedPaths) {
        this(in, out, err, env, cwd, home, version, firstSignal, onSignal, frameworkErrors, new Stdio.Inherit(),
                protectedPaths);
    }

    CliIo {
        Objects.requireNonNull(in);
        Objects.requireNonNull(out);
        Objects.requireNonNull(err);
        env = Map.copyOf(env);
        Objects.requireNonNull(cwd);
        Objects.requireNonNull(home);
        Objects.requireNonNull(version);
        Objects.requireNonNull(firstSignal);
        Objects.requireNonNull(onSignal);
        frameworkErrors = List.copyOf(frameworkErrors);
        Objects.requireNonNull(stdio);
        protectedPaths = List.copyOf(protectedPaths);
    }

    /** The default policy shipped in {@code conf/}, when this invocation knows the distribution home. */
    Optional<Path> defaultPolicy() {
        return home.map(h -> h.resolve("conf").resolve("default-policy.yaml"));
    }

    Path resolve(String path) {
        return Path.of(cwd).resolve(path).normalize();
    }
}
