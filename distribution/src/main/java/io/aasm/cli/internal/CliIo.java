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
 * Everything one command invocation talks to, whichever face called it: the invocation itself
 * (streams, the caller's environment and working directory, stdio, signal hand-off) and the face's
 * settings (the distribution home for the default policy, the version, aasm's protected paths, the
 * resident kernel's socket).
 */
record CliIo(CommandInvocation call, FaceSettings face) {
    CliIo {
        Objects.requireNonNull(call);
        Objects.requireNonNull(face);
    }

    InputStream in() {
        return call.in();
    }

    PrintStream out() {
        return call.out();
    }

    PrintStream err() {
        return call.err();
    }

    Map<String, String> env() {
        return call.env();
    }

    String cwd() {
        return call.cwd();
    }

    Stdio stdio() {
        return call.stdio();
    }

    AtomicInteger firstSignal() {
        return call.firstSignal();
    }

    AtomicReference<IntConsumer> onSignal() {
        return call.onSignal();
    }

    List<String> frameworkErrors() {
        return call.frameworkErrors();
    }

    CommandInvocation.Face callerFace() {
        return call.caller().face();
    }

    Optional<Path> home() {
        return face.home();
    }

    String version() {
        return face.version();
    }

    List<String> protectedPaths() {
        return face.protectedPaths();
    }

    Optional<Path> residentSocket() {
        return face.residentSocket();
    }

    /** The default policy shipped in {@code conf/}, when this invocation knows the distribution home. */
    Optional<Path> defaultPolicy() {
        return home().map(h -> h.resolve("conf").resolve("default-policy.yaml"));
    }

    Path resolve(String path) {
        return Path.of(cwd()).resolve(path).normalize();
    }
}
