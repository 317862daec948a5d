package io.aasm.cli.boot.resident;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.launch.Framework;
import org.osgi.util.tracker.ServiceTracker;

/**
 * {@code aasm daemon run}: the framework is up; wait until this framework's own resident server
 * listens on the socket (it registers a {@code Supplier} with {@code aasm.resident=listening} once it
 * does; a component failure, e.g. another kernel holding the socket's lock, must not leave a silent JVM
 * behind), then serve until stopped ({@code daemon stop}, SIGTERM/SIGINT/SIGHUP).
 */
public final class Resident {
    static final String LISTENING = "(&(objectClass=java.util.function.Supplier)(aasm.resident=listening))";
    private static final int FAILED = 125;

    private Resident() {
    }

    public static int serve(Framework fw, PrintStream err, List<String> frameworkErrors) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                fw.stop(); // deactivates the server: the socket file is removed
                fw.waitForStop(TimeUnit.SECONDS.toMillis(5));
            } catch (Exception e) {
                // the process ends anyway
            }
        }, "aasm-resident-shutdown"));
        BundleContext ctx = fw.getBundleContext();
        ServiceTracker<Object, Object> tracker = new ServiceTracker<>(ctx, ctx.createFilter(LISTENING), null);
        tracker.open();
        try {
            long timeout = Long.getLong("aasm.start.timeout.ms", 20_000);
            if (tracker.waitForService(timeout) == null) {
                err.println("aasm daemon: the resident kernel did not start listening on " + ResidentPath.socket()
                        + " within " + timeout + " ms. Framework errors:");
                frameworkErrors.forEach(e -> err.println("  - " + e));
                return FAILED;
            }
        } finally {
            tracker.close();
        }
        fw.waitForStop(0);
        return 0;
    }
}
