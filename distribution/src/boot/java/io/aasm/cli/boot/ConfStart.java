package io.aasm.cli.boot;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Supplier;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.util.tracker.ServiceTracker;

/**
 * The operator's {@code conf/*.cfg} are in Configuration Admin before any component that reads them
 * starts. The bundles of {@link #FIRST} start first: Configuration Admin, Metatype, SCR and the aasm
 * command bundle, whose {@code conf/} component applies every file while it activates and then
 * registers a JDK-typed signal ({@code Supplier} with {@code aasm.conf=applied}). The boot jar waits for
 * that signal, prints the files it could not apply, and only then starts the kernel and the backends,
 * which therefore activate with their configuration from the first launch on (never with the defaults
 * first and the file a moment later).
 */
final class ConfStart {
    /** In start order. */
    static final List<String> FIRST = List.of("org.apache.felix.configadmin", "org.apache.felix.metatype",
            "org.apache.felix.scr", "io.aasm.distribution");
    static final String SIGNAL = "(&(objectClass=java.util.function.Supplier)(aasm.conf=applied))";

    private ConfStart() {
    }

    /**
     * Waits for the signal and prints each problem it reports as a warning line. Without the signal the
     * configuration the operator wrote is not in effect, so nothing may start: {@link CannotStart}.
     */
    static void await(BundleContext ctx, long timeoutMs, PrintStream err) {
        ServiceTracker<Object, Object> tracker;
        try {
            tracker = new ServiceTracker<>(ctx, ctx.createFilter(SIGNAL), null);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        tracker.open();
        try {
            Object signal = tracker.waitForService(timeoutMs);
            if (!(signal instanceof Supplier<?> s)) {
                throw new CannotStart("the configuration in conf/ could not be applied (Configuration Admin, Metatype"
                        + " or the aasm command bundle did not start within " + timeoutMs + " ms); nothing was started");
            }
            if (s.get() instanceof List<?> problems) {
                problems.forEach(p -> err.println("aasm: " + p));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CannotStart("interrupted while applying conf/; nothing was started");
        } finally {
            tracker.close();
        }
    }
}
