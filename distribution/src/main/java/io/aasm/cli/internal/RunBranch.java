package io.aasm.cli.internal;

import java.io.PrintWriter;
import java.io.Writer;
import picocli.CommandLine;

/**
 * The {@code run} branch's picocli model, built once per thread and reused for every call that thread
 * serves (issue 18: building it from the annotations by reflection was 3–7 ms of every resident launch).
 * A {@link CommandLine} is not thread-safe and holds the parsed values, hence one per thread: the resident
 * kernel's connection threads are pooled, so a busy kernel builds it once per thread. Picocli resets every
 * option and parameter to its initial value before each parse, so a call sees nothing of the previous one
 * ({@code AasmCliTest}); the call's {@link Invocation} and streams are unbound when it ends, so no client's
 * descriptors stay reachable from the cached model. The model is rebuilt when the face's report formats or
 * version differ (another services object, e.g. in tests). {@code -D}{@value #PER_CALL}{@code =true} builds
 * it per call as before: the switch the paired benchmark measures the two against (docs/benchmarks.md).
 */
final class RunBranch {
    /** A system property: build the model per call (the measured baseline), not once per thread. */
    static final String PER_CALL = "aasm.cli.modelPerCall";
    private static final boolean REUSE = !Boolean.getBoolean(PER_CALL);
    private static final ThreadLocal<RunBranch> CACHED = new ThreadLocal<>();
    private static final PrintWriter NOWHERE = new PrintWriter(Writer.nullWriter());

    private final ReportFormats formats;
    private final String version;
    private final ExecCommand exec;
    private final CommandLine top;
    private boolean busy;

    private RunBranch(Invocation inv) {
        this.formats = inv.reportFormats();
        this.version = inv.io().version();
        this.exec = new ExecCommand(null);
        this.top = AasmCli.tree(inv, "run", exec);
    }

    /** This thread's model, bound to {@code inv} until {@link #release}. */
    static CommandLine acquire(Invocation inv) {
        RunBranch b = CACHED.get();
        if (!REUSE || b != null && b.busy) {
            // per call (the switch), or a call nested in a call on this thread: never the model in use
            RunBranch nested = new RunBranch(inv);
            nested.exec.bind(inv);
            return nested.top;
        }
        if (b == null || b.formats != inv.reportFormats() || !b.version.equals(inv.io().version())) {
            b = new RunBranch(inv);
            CACHED.set(b);
        }
        b.busy = true;
        b.exec.bind(inv);
        return b.top;
    }

    /** Unbinds this thread's model from the call that ended ({@code top}: what {@link #acquire} returned). */
    static void release(CommandLine top) {
        RunBranch b = CACHED.get();
        if (b != null && b.top == top) {
            b.busy = false;
            b.exec.bind(null);
            b.top.setOut(NOWHERE);
            b.top.setErr(NOWHERE);
        }
    }
}
