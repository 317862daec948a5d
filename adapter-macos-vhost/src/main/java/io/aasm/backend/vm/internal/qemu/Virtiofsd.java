package io.aasm.backend.vm.internal.qemu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One virtiofsd (the C daemon QEMU 7.2 ships) per share of a launch. The daemon has no read-only option, so a
 * read-only share is made read-only underneath it: each daemon starts in a mount namespace of its own in which
 * the share is bind-mounted at a private folder and that bind is remounted read-only, and the daemon serves
 * that folder. Every write the guest asks for then fails in the host kernel (EROFS) whatever the daemon does;
 * undoing it needs a remount, which the daemon can no longer make once its sandbox is up (docs/vm.md, "virtiofs
 * shares"). The folder lives in the run folder; the mounts exist only in the daemon's namespace.
 */
final class Virtiofsd {
    /** Where Debian puts it: qemu-system-common 7.2 in /usr/lib/qemu, later releases' virtiofsd in /usr/libexec. */
    private static final List<Path> PLACES = List.of(Path.of("/usr/libexec/virtiofsd"), Path.of("/usr/lib/qemu/virtiofsd"));
    private static final Path UNSHARE = Path.of("/usr/bin/unshare");

    /**
     * Run by /bin/sh inside the new namespace: $1 the host folder, $2 the private mount point, $3 ro or rw,
     * $4 the daemon, $5 its socket, $6 its cache mode. The daemon replaces the shell (same process, same
     * parent-death signal).
     */
    private static final String VIEW = "mount --bind \"$1\" \"$2\" && { [ \"$3\" = rw ] || mount -o remount,bind,ro \"$2\"; }"
            + " && exec \"$4\" --socket-path=\"$5\" -o source=\"$2\" -o cache=\"$6\" -o sandbox=namespace"
            + " -o no_posix_lock -o no_flock -o log_level=warn";

    private Virtiofsd() {
    }

    /** The daemon, when installed (apt-get install qemu-system-common). */
    static Optional<Path> find() {
        return PLACES.stream().filter(Files::isExecutable).findFirst();
    }

    /** Why virtiofs shares cannot be served here, if they cannot. */
    static Optional<String> unavailable(boolean root) {
        if (find().isEmpty()) {
            return Optional.of("virtiofs shares need virtiofsd (" + PLACES.get(1) + ", apt-get install "
                    + "qemu-system-common)");
        }
        if (!Files.isExecutable(UNSHARE)) {
            return Optional.of("virtiofs shares need " + UNSHARE + " (apt-get install util-linux)");
        }
        return root ? Optional.empty() : Optional.of("virtiofs shares need root: the read-only view under each "
                + "virtiofsd is a mount namespace of its own, and its sandbox is another");
    }

    /** A started daemon and the socket QEMU connects to. */
    record Daemon(int slot, Path socket, Process process) {
    }

    /**
     * Starts one daemon per slot and returns once every socket exists (the daemon listens before it creates
     * it). On any failure the daemons already started are killed.
     */
    static List<Daemon> start(Spawner spawner, List<QemuArgs.Share> shares, Path runDir, long waitMillis)
            throws IOException {
        Path bin = find().orElseThrow(() -> new IOException(unavailable(true).orElseThrow()));
        if (runDir.toString().indexOf(',') >= 0) { // the daemon's -o options are comma-separated, without escapes here
            throw new IOException("the run folder " + runDir + " holds a comma, which virtiofsd's -o source= cannot carry");
        }
        List<Daemon> started = new ArrayList<>();
        try {
            for (QemuArgs.Share s : shares) {
                Path mnt = Files.createDirectory(runDir.resolve("vfs" + s.slot()));
                Path sock = runDir.resolve("vfs" + s.slot() + ".sock");
                List<String> cmd = List.of(UNSHARE.toString(), "--mount", "--propagation", "private", "--",
                        "/bin/sh", "-c", VIEW, "virtiofsd", s.hostPath().toString(), mnt.toString(),
                        s.readOnly() ? "ro" : "rw", bin.toString(), sock.toString(),
                        s.readOnly() ? "always" : "none"); // a writable share must see host changes at once, as 9p's mmap
                Process p = spawner.startKeepingCapabilities(cmd, Map.of("PATH", "/usr/bin:/bin", "LANG", "C"),
                        runDir.resolve("virtiofsd" + s.slot() + ".log"));
                started.add(new Daemon(s.slot(), sock, p));
            }
            long deadline = System.nanoTime() + waitMillis * 1_000_000L;
            for (Daemon d : started) {
                awaitSocket(d, deadline, runDir);
            }
            return started;
        } catch (IOException | RuntimeException e) {
            stop(started);
            throw e;
        }
    }

    private static void awaitSocket(Daemon d, long deadline, Path runDir) throws IOException {
        while (!Files.exists(d.socket())) {
            if (!d.process().isAlive()) {
                throw new IOException("virtiofsd for share " + d.slot() + " exited with " + d.process().exitValue()
                        + log(runDir, d.slot()));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("virtiofsd for share " + d.slot() + " did not listen in time" + log(runDir, d.slot()));
            }
            try {
                Thread.sleep(5); // polling the condition itself: the socket file is the daemon's readiness
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting virtiofsd");
            }
        }
    }

    private static String log(Path runDir, int slot) {
        try {
            String s = Files.readString(runDir.resolve("virtiofsd" + slot + ".log")).strip();
            return s.isEmpty() ? "" : " (" + s.replace('\n', ' ') + ")";
        } catch (IOException e) {
            return "";
        }
    }

    /** SIGKILL: a daemon also ends by itself when QEMU, its only client, goes. */
    static void stop(List<Daemon> daemons) {
        daemons.forEach(d -> d.process().destroyForcibly());
        for (Daemon d : daemons) {
            try {
                d.process().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
