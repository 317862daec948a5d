package io.aasm.backend.landlockseccomp.internal.launcher;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;

/** Shared test plumbing: the extracted launcher and a run with files for stdout/stderr. */
final class LauncherFixture {
    private static LauncherBinary binary;

    private LauncherFixture() {
    }

    static synchronized LauncherBinary binary() throws IOException {
        if (binary == null) {
            binary = LauncherBinary.extract(Path.of("target", "launcher-cache").toAbsolutePath());
        }
        return binary;
    }

    /** Launch with stdout/stderr captured into {@code dir}; returns once the launcher has exited. */
    static Result run(PlanMessage plan, Path dir) throws IOException {
        return run(PlanEncoder.encode(plan), dir, false);
    }

    static Result run(byte[] message, Path dir, boolean endInput) throws IOException {
        LauncherProcess p = start(message, dir, endInput);
        ExitOutcome exit = p.waitFor();
        Result r = new Result(p.awaitStart(), exit, p.launcherExitCode(), p, read(dir.resolve("stdout")),
                read(dir.resolve("stderr")));
        p.close();
        return r;
    }

    static LauncherProcess start(byte[] message, Path dir, boolean endInput) throws IOException {
        LaunchOptions opts = LaunchOptions.inherit().withStdio(Redirect.from(Path.of("/dev/null").toFile()),
                Redirect.to(dir.resolve("stdout").toFile()), Redirect.to(dir.resolve("stderr").toFile()));
        return LauncherProcess.start(binary().path(), message, opts.withZygote(suiteZygote()), endInput);
    }

    private static java.util.Optional<ZygoteSupply> suiteZygote;

    /** {@code -Daasm.native.zygote=true}: every launcher test forks its launcher from one zygote (a second pass). */
    static synchronized java.util.Optional<ZygoteSupply> suiteZygote() throws IOException {
        if (suiteZygote == null) {
            suiteZygote = ZygoteSupply.enabled(false) ? java.util.Optional.of(new ZygoteSupply(binary().path()))
                    : java.util.Optional.empty();
        }
        return suiteZygote;
    }

    static String read(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p) : "";
    }

    /** A minimal valid plan running {@code /bin/sh -c script} with stdio kept and an empty environment. */
    static PlanMessage.Builder sh(String script) {
        return PlanMessage.builder().program("/bin/sh").argv("sh", "-c", script).keepFds(0, 1, 2);
    }

    /** A unique {@code sleep} duration: processes running {@code /bin/sleep <tag>} belong to one test. */
    static String newTag() {
        return "7" + java.util.concurrent.ThreadLocalRandom.current().nextInt(100_000, 999_999) + ".5";
    }

    static java.util.List<ProcessHandle> tagged(String tag) {
        return ProcessHandle.allProcesses().filter(h -> {
            try {
                byte[] cmd = Files.readAllBytes(Path.of("/proc", Long.toString(h.pid()), "cmdline"));
                return new String(cmd).equals("/bin/sleep\0" + tag + "\0");
            } catch (IOException e) {
                return false;
            }
        }).filter(ProcessHandle::isAlive).toList();
    }

    /** Waits for an effect, generously (up to 15 s); the assertion after it states what must hold. */
    static void waitFor(java.util.function.BooleanSupplier cond) throws InterruptedException {
        for (int i = 0; i < 300 && !cond.getAsBoolean(); i++) {
            Thread.sleep(50);
        }
    }

    record Result(StartOutcome start, ExitOutcome exit, int code, LauncherProcess process, String stdout,
            String stderr) {
        @Override
        public String toString() {
            return "start=" + start + " exit=" + exit + " code=" + code + " transcript=" + process.transcript()
                    + " stderr=" + stderr;
        }
    }
}
