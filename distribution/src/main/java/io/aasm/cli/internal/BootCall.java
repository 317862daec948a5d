package io.aasm.cli.internal;

import io.aasm.ports.backend.Stdio;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * The boot jar's call, read into a {@link CommandInvocation}. The boot jar ({@code bin/aasm}, outside the
 * framework) shares no class with any bundle, so it can only pass JDK types: a map whose keys are
 * written here and in {@code io.aasm.cli.boot.Main.runHeadless}, nowhere else.
 */
final class BootCall {
    static final String ARGS = "args";
    static final String IN = "in";
    static final String OUT = "out";
    static final String ERR = "err";
    static final String ENV = "env";
    static final String CWD = "cwd";
    static final String FIRST_SIGNAL = "firstSignal";
    static final String ON_SIGNAL = "onSignal";
    static final String FRAMEWORK_ERRORS = "frameworkErrors";

    private BootCall() {
    }

    @SuppressWarnings("unchecked")
    static CommandInvocation read(Map<String, Object> call) {
        return new CommandInvocation(Arrays.asList((String[]) call.get(ARGS)), (String) call.get(CWD),
                (Map<String, String>) call.get(ENV), (InputStream) call.get(IN), (PrintStream) call.get(OUT),
                (PrintStream) call.get(ERR), new Stdio.Inherit(),
                new CommandInvocation.Caller(CommandInvocation.Face.CLI, ProcessHandle.current().pid(), -1),
                (AtomicInteger) call.get(FIRST_SIGNAL), (AtomicReference<IntConsumer>) call.get(ON_SIGNAL),
                (List<String>) call.getOrDefault(FRAMEWORK_ERRORS, List.of()));
    }
}
