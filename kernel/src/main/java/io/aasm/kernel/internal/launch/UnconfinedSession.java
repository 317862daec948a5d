package io.aasm.kernel.internal.launch;

import io.aasm.kernel.internal.report.PostRunReports;
import io.aasm.kernel.internal.transport.MediationEvidence;
import io.aasm.kernel.internal.transport.OpenMediation;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.report.IsolationReport;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A launch without a boundary: the JVM starts the program with the caller's environment and
 * stdio (inherited, or the descriptors a resident-kernel client passed). On Linux the JVM already reports a signalled child as 128+N, which is exactly the shell
 * status we pass on, so the disposition is kept as that status. A mediated launch gets its session's proxy
 * variables; the session is closed when the program has ended, and its records are run-level evidence (no
 * boundary's row may rest on them).
 */
public final class UnconfinedSession implements LaunchSession {

    private final Process process;
    private final IsolationReport pre;
    private final PostRunReports postRun;
    private final OpenMediation mediation;
    private volatile ExitDisposition exit;

    private UnconfinedSession(Process process, IsolationReport pre, PostRunReports postRun, OpenMediation mediation) {
        this.process = process;
        this.pre = pre;
        this.postRun = postRun;
        this.mediation = mediation;
    }

    public static UnconfinedSession start(ExecutionSpec spec, IsolationReport pre, PostRunReports postRun)
            throws LaunchException {
        return start(spec, OpenMediation.none(), pre, postRun);
    }

    public static UnconfinedSession start(ExecutionSpec spec, OpenMediation mediation, IsolationReport pre,
                                          PostRunReports postRun) throws LaunchException {
        List<String> command = new ArrayList<>();
        command.add(spec.program());
        command.addAll(spec.args());
        ProcessBuilder pb = new ProcessBuilder(command).directory(new File(spec.workingDirectory())).inheritIO();
        if (spec.stdio() instanceof Stdio.Descriptors d) {
            // descriptors a remote caller (the resident kernel's client) passed: reopen its own tty/pipe/file;
            // output in append mode so a file is never truncated (a socket cannot be reopened: see docs/resident.md)
            pb.redirectInput(fd(d.stdin())).redirectOutput(ProcessBuilder.Redirect.appendTo(fd(d.stdout())))
                    .redirectError(ProcessBuilder.Redirect.appendTo(fd(d.stderr())));
        }
        pb.environment().clear();
        pb.environment().putAll(spec.environment());
        pb.environment().putAll(mediation.environment());
        try {
            return new UnconfinedSession(pb.start(), pre, postRun, mediation);
        } catch (IOException e) {
            throw new LaunchException(kindOf(e), spec.program() + ": " + e.getMessage(), e);
        }
    }

    private static File fd(int fd) {
        return new File("/proc/self/fd/" + fd);
    }

    /** The JVM only reports errno in the message ("error=2, No such file or directory"). */
    static LaunchFailureKind kindOf(IOException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("error=2,")) {
            return LaunchFailureKind.NOT_FOUND;
        }
        if (m.contains("error=13,") || m.contains("error=8,") || m.contains("error=20,")) {
            return LaunchFailureKind.NOT_EXECUTABLE;
        }
        return LaunchFailureKind.BACKEND_ERROR;
    }

    private static final long GRACE_MILLIS = 2000;
    private volatile List<ProcessHandle> terminating;

    @Override
    public ExitDisposition await() throws InterruptedException {
        ExitDisposition done = exit;
        if (done == null) {
            done = new ExitDisposition.Exited(process.waitFor());
            mediation.finish();
            exit = done;
            List<ProcessHandle> rest = terminating;
            if (rest != null) {
                // The program has had its turn; what it left of the tree goes now, not later, so
                // nothing outlives a terminated launch because the supervisor itself exits next.
                rest.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
            }
        }
        return done;
    }

    /**
     * SIGHUP, SIGINT and SIGQUIT reach the program as themselves (the JVM can only send SIGTERM and SIGKILL,
     * so kill(1) does it); anything else is for {@link #terminate}.
     */
    @Override
    public boolean signal(int signal) {
        if (!process.isAlive() || !(signal == 1 || signal == 2 || signal == 3)) {
            return false;
        }
        try {
            return new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
                    .waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        if (!process.isAlive()) {
            return false;
        }
        if (request == TerminationRequest.IMMEDIATE) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            return true;
        }
        // The program gets the signal first so its own handler decides what happens to its children
        // (a shell's `wait` would otherwise return early when a child dies first); whatever of the tree
        // is still there after the grace period is signalled too.
        List<ProcessHandle> tree = process.descendants().toList();
        terminating = tree;
        process.destroy();
        Thread sweeper = new Thread(() -> {
            try {
                Thread.sleep(GRACE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
        }, "aasm-unconfined-sweep");
        sweeper.setDaemon(true);
        sweeper.start();
        return true;
    }

    @Override
    public IsolationReport postRunReport() {
        ExitDisposition done = exit;
        if (done == null) {
            throw new IllegalStateException("postRunReport() is only meaningful after await() returned");
        }
        if (mediation.session().isPresent()) {
            return postRun.withRunEvidence(postRun.postRun(pre, Optional.empty(), done),
                    MediationEvidence.merged(Optional.empty(), mediation.finish()));
        }
        return postRun.postRun(pre, Optional.empty(), done);
    }
}
