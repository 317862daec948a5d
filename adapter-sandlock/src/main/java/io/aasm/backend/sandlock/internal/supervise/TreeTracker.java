package io.aasm.backend.sandlock.internal.supervise;

import java.util.List;

/**
 * Owns the teardown of one launched tree, because sandlock 0.8.6 lets background descendants
 * outlive it and setsid escape its group kill (upstream #238, #251, #252).
 */
public interface TreeTracker extends AutoCloseable {
    /** The command actually started (a tracker may put a tiny placement step in front of sandlock). */
    List<String> wrap(List<String> command);

    /** Called once the root process runs. */
    void started(ProcessHandle root);

    /** SIGTERM to every process of the tree still running. */
    void terminateAll();

    /** SIGKILL to every process of the tree, repeated until none is left; returns how many were signalled. */
    int killAll();

    /** Releases what the tracker holds (directories, threads). Never throws. */
    @Override
    void close();
}
