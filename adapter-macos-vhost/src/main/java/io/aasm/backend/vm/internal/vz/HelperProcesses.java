package io.aasm.backend.vm.internal.vz;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Starts helper processes from one long-lived thread, with an environment of PATH and LANG only, stdin and
 * stdout piped (they become the guest's control port) and stderr into a log file. The one thread matters to
 * the Linux stand-in, which arms a parent-death signal that follows the forking thread; on macOS the helper
 * watches its parent itself (CONTRACT.md).
 */
final class HelperProcesses implements AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "aasm-vz-spawner");
        t.setDaemon(true);
        return t;
    });

    Process start(List<String> command, Path stderrLog) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderrLog.toFile());
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin:/usr/sbin:/sbin");
        pb.environment().put("LANG", "C");
        Future<Process> f = thread.submit(pb::start);
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof IOException io ? io : new IOException("cannot start " + command.get(0) + ": " + c, c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + command.get(0));
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
