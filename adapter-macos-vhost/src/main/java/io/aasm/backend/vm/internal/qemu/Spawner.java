package io.aasm.backend.vm.internal.qemu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Starts hypervisor processes so that they die with the JVM: each runs under {@code setpriv --pdeathsig KILL}
 * (and, as root, with every capability dropped and no_new_privs), started from one long-lived thread,
 * because the death signal follows the thread that forked, not the process. QEMU then holds no capability
 * even when aasm runs as root: a guest that escaped into it is a capability-less process of the caller.
 */
public final class Spawner implements AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "aasm-vm-spawner");
        t.setDaemon(true);
        return t;
    });
    private final Path setpriv;
    private final boolean root;

    public Spawner(Path setpriv, boolean root) {
        this.setpriv = setpriv;
        this.root = root;
    }

    /** The command under setpriv, its environment only {@code env}, stdout discarded, stderr into {@code log}. */
    public Process start(List<String> command, Map<String, String> env, Path log) throws IOException {
        return start(command, env, log, false);
    }

    /**
     * As {@link #start(List, Map, Path)} but keeping the caller's capabilities: for virtiofsd, which needs them to
     * build its own sandbox (mount namespace, pivot_root) and then drops all but the few its file operations use.
     */
    Process startKeepingCapabilities(List<String> command, Map<String, String> env, Path log) throws IOException {
        return start(command, env, log, true);
    }

    private Process start(List<String> command, Map<String, String> env, Path log, boolean keepCaps)
            throws IOException {
        List<String> full = new ArrayList<>(List.of(setpriv.toString(), "--pdeathsig", "KILL", "--no-new-privs"));
        if (root && !keepCaps) {
            full.addAll(List.of("--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all"));
        }
        full.add("--");
        full.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(full).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(log.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
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
