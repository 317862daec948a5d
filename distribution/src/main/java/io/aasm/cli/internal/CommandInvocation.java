package io.aasm.cli.internal;

import io.aasm.ports.backend.Stdio;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * One command as a face hands it to the command layer: the caller's argv, working directory and
 * environment, aasm's own streams for it, where a launched program's stdio goes, who the caller is,
 * and the signal hand-off ({@code firstSignal} set before a launch, {@code onSignal} installed by the
 * command once a program runs). {@code frameworkErrors} are what the framework logged while starting,
 * shown when a service the command needs never came.
 */
public record CommandInvocation(List<String> args, String cwd, Map<String, String> env, InputStream in,
                                PrintStream out, PrintStream err, Stdio stdio, Caller caller,
                                AtomicInteger firstSignal, AtomicReference<IntConsumer> onSignal,
                                List<String> frameworkErrors) {

    /** Which face took the command; some commands exist only on one ({@code shell}, {@code daemon run}). */
    public enum Face {
        /** {@code bin/aasm}, a JVM of its own. */
        CLI,
        /** A client of the resident kernel ({@code bin/aasm-client}). */
        RESIDENT,
        /** The Gogo shell. */
        SHELL
    }

    /** The calling process as the face observed it (for a resident client: SO_PEERCRED, never its word). */
    public record Caller(Face face, long pid, int uid) {
        public Caller {
            Objects.requireNonNull(face);
        }
    }

    public CommandInvocation {
        args = List.copyOf(args);
        Objects.requireNonNull(cwd);
        env = Map.copyOf(env);
        Objects.requireNonNull(in);
        Objects.requireNonNull(out);
        Objects.requireNonNull(err);
        Objects.requireNonNull(stdio);
        Objects.requireNonNull(caller);
        Objects.requireNonNull(firstSignal);
        Objects.requireNonNull(onSignal);
        frameworkErrors = List.copyOf(frameworkErrors);
    }
}
