package io.aasm.backend.sandlock.internal.supervise;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fallback when no cgroup can be created: scans /proc for descendants of the root every few
 * milliseconds and remembers each one (pid + start time), so that one reparented after a setsid is
 * still killed. A descendant that appears and detaches between two scans is missed; the capability
 * report says so.
 */
final class ProcWalkTree implements TreeTracker {
    private final ProcessTable table;
    private final long intervalMillis;
    private final Map<Long, ProcessTable.Proc> tracked = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private Thread scanner;

    ProcWalkTree(ProcessTable table, long intervalMillis) {
        this.table = table;
        this.intervalMillis = intervalMillis;
    }

    @Override
    public List<String> wrap(List<String> command) {
        return command;
    }

    @Override
    public void started(ProcessHandle root) {
        table.read(root.pid()).ifPresent(p -> tracked.put(p.pid(), p));
        scanner = new Thread(() -> {
            while (!closed) {
                scan();
                try {
                    Thread.sleep(intervalMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "aasm-sandlock-procwalk");
        scanner.setDaemon(true);
        scanner.start();
    }

    /** Adds every live process whose parent is a tracked, still-matching process, to a fixpoint. */
    synchronized void scan() {
        Map<Long, ProcessTable.Proc> all = table.snapshot();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (ProcessTable.Proc p : all.values()) {
                ProcessTable.Proc parent = tracked.get(p.ppid());
                ProcessTable.Proc known = tracked.get(p.pid());
                if (parent != null && (known == null || known.startTime() != p.startTime())
                        && p.startTime() >= parent.startTime()) {
                    tracked.put(p.pid(), p);
                    grew = true;
                }
            }
        }
    }

    private List<ProcessTable.Proc> alive() {
        List<ProcessTable.Proc> out = new ArrayList<>();
        for (ProcessTable.Proc p : tracked.values()) {
            if (table.alive(p)) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public void terminateAll() {
        scan();
        alive().forEach(p -> ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroy));
    }

    @Override
    public int killAll() {
        int signalled = 0;
        for (int round = 0; round < 200; round++) {
            scan();
            List<ProcessTable.Proc> live = alive();
            if (live.isEmpty()) {
                break;
            }
            for (ProcessTable.Proc p : live) {
                ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly);
                signalled++;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return signalled;
    }

    @Override
    public void close() {
        closed = true;
        if (scanner != null) {
            scanner.interrupt();
        }
    }
}
