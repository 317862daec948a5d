package io.aasm.cli.boot;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.felix.framework.Logger;

/**
 * Felix logs to System.out by default, which is the launched program's stdout; framework messages go
 * to the real stderr instead, and errors are kept for the "kernel did not start" diagnostic.
 */
final class StderrLogger extends Logger {
    private final PrintStream err;
    private final boolean verbose;
    final List<String> errors = new CopyOnWriteArrayList<>();

    StderrLogger(PrintStream err, boolean verbose) {
        this.err = err;
        this.verbose = verbose;
        setLogLevel(LOG_WARNING);
    }

    @Override
    protected void doLogOut(int level, String msg, Throwable throwable) {
        String line = msg + (throwable == null ? "" : " (" + throwable + ")");
        if (level == LOG_ERROR) {
            errors.add(line);
        }
        if (verbose) {
            err.println("aasm: felix: " + line);
        }
    }
}
