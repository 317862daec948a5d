package io.aasm.backend.landlockseccomp.internal.launcher;

import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;

/**
 * Benchmark, not a test: boundary install time (launcher start to just before seccomp+execve, measured in the
 * launcher) and warm end-to-end latency of /bin/true through {@link LauncherProcess} versus a plain
 * ProcessBuilder launch, in the same run. Run: java -cp target/classes:target/test-classes:<ports> ... [runs]
 */
public final class LauncherBench {
    private LauncherBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path launcher = LauncherFixture.binary().path();
        Redirect devnull = Redirect.to(Path.of("/dev/null").toFile());
        LaunchOptions opts = LaunchOptions.inherit().withStdio(Redirect.from(Path.of("/dev/null").toFile()), devnull, devnull);
        PlanMessage bare = PlanMessage.builder().program("/bin/true").argv("true").keepFds(0, 1, 2).build();
        PlanMessage full = PlanMessage.builder().program("/bin/true").argv("true").keepFds(0, 1, 2)
                .namespaces(EnumSet.allOf(PlanRecord.Namespace.class)).userMap(0, 0, 0, 0).mountProc().loopbackUp()
                .noNewPrivs().landlock(0xffff, 3, 3).landlockPath(0xffffL & ~0x5ff2L, "/usr")
                .landlockPath(0xffffL & ~0x5ff2L, "/etc").landlockPath(0xffff, "/tmp").landlockPort(2, 8080)
                .seccomp(0, LauncherRunTest.denyMkdir()).signals(PlanRecord.SignalTarget.PROGRAM, 1, 2, 15).build();
        PlanMessage fsOnly = PlanMessage.builder().program("/bin/true").argv("true").keepFds(0, 1, 2).noNewPrivs()
                .landlock(0xffff, 0, 0).landlockPath(0xffffL & ~0x5ff2L, "/usr").landlockPath(0xffff, "/tmp")
                .seccomp(0, LauncherRunTest.denyMkdir()).build();
        for (int i = 0; i < 20; i++) {
            once(launcher, bare, opts);
            baseline(devnull);
        }
        long[][] b = new long[3][runs], l = new long[3][runs], f = new long[3][runs], base = new long[1][runs];
        for (int i = 0; i < runs; i++) {
            // Interleaved so that load changes hit every variant alike.
            base[0][i] = baseline(devnull);
            long[] r = once(launcher, bare, opts);
            b[0][i] = r[0];
            b[1][i] = r[1];
            b[2][i] = r[2];
            r = once(launcher, fsOnly, opts);
            l[0][i] = r[0];
            l[1][i] = r[1];
            l[2][i] = r[2];
            r = once(launcher, full, opts);
            f[0][i] = r[0];
            f[1][i] = r[1];
            f[2][i] = r[2];
        }
        System.out.printf("runs=%d (medians; p90 in brackets), load: %s%n", runs,
                new String(java.nio.file.Files.readAllBytes(Path.of("/proc/loadavg"))).trim());
        System.out.printf("ProcessBuilder /bin/true end-to-end:          %s%n", ms(base[0]));
        String fmt = "launcher, %-40s start->execve %s  plan->execve %s  end-to-end %s%n";
        System.out.printf(fmt, "no controls:", ms(b[0]), ms(b[2]), ms(b[1]));
        System.out.printf(fmt, "landlock+seccomp:", ms(l[0]), ms(l[2]), ms(l[1]));
        System.out.printf(fmt, "all namespaces+landlock+seccomp:", ms(f[0]), ms(f[2]), ms(f[1]));
    }

    private static long[] once(Path launcher, PlanMessage plan, LaunchOptions opts) throws Exception {
        long t0 = System.nanoTime();
        try (LauncherProcess p = LauncherProcess.start(launcher, plan, opts)) {
            StartOutcome s = p.awaitStart();
            ExitOutcome e = p.waitFor();
            long t1 = System.nanoTime();
            if (!(s instanceof StartOutcome.Started st) || !e.equals(new ExitOutcome.Exited(0))) {
                throw new IllegalStateException(s + " " + e + " " + p.transcript());
            }
            return new long[] {st.setupNanos(), t1 - t0, st.installNanos()};
        }
    }

    private static long baseline(Redirect devnull) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder("/bin/true").redirectInput(Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(devnull).redirectError(devnull).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("baseline failed");
        }
        return System.nanoTime() - t0;
    }

    private static String ms(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return String.format("%.3f ms [%.3f]", s[s.length / 2] / 1e6, s[(int) (s.length * 0.9)] / 1e6);
    }
}
