package io.aasm.cli.launcher.resident;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.launch.Framework;

/**
 * {@code aasm daemon run}: the framework is up; wait until this process's own kernel answers on the
 * socket (a component failure, e.g. another kernel holding the socket's lock, must not leave a silent
 * JVM behind), then serve until stopped ({@code daemon stop}, SIGTERM/SIGINT/SIGHUP).
 */
public final class Resident {
    private static final int FAILED = 125;

    private Resident() {
    }

    public static int serve(Framework fw, PrintStream err) throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                fw.stop(); // deactivates the server: the socket file is removed
                fw.waitForStop(TimeUnit.SECONDS.toMillis(5));
            } catch (Exception e) {
                // the process ends anyway
            }
        }, "aasm-resident-shutdown"));
        Path sock = ResidentPath.socket();
        String self = "pid=" + ProcessHandle.current().pid() + " ";
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.getLong("aasm.start.timeout.ms", 20_000));
        while (true) {
            Optional<String> s;
            try {
                s = DaemonControl.ask(sock, 'Q');
            } catch (IOException e) {
                s = Optional.empty();
            }
            if (s.isPresent() && s.get().contains(self)) {
                break;
            }
            if (System.nanoTime() > deadline) {
                err.println("aasm daemon: the resident kernel did not start listening on " + sock
                        + (s.isPresent() ? " (another kernel answers there: " + s.get() + ")" : ""));
                return FAILED;
            }
            Thread.sleep(25);
        }
        fw.waitForStop(0);
        return 0;
    }
}
