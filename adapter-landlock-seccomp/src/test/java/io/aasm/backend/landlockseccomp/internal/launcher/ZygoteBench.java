package io.aasm.backend.landlockseccomp.internal.launcher;

import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;

/**
 * Benchmark, not a test: the same full plan (every namespace, Landlock, seccomp, signals) through a launcher this
 * JVM executes and through one the zygote forks, alternated in one loop so load hits both alike: end-to-end wall,
 * the launcher's own stages (start to plan read, plan read to just before execve) and this JVM's CPU per launch.
 * Run: java -cp target/classes:target/test-classes:<deps> ...ZygoteBench [runs]
 */
public final class ZygoteBench {
    private ZygoteBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path launcher = LauncherFixture.binary().path();
        Redirect devnull = Redirect.to(Path.of("/dev/null").toFile());
        LaunchOptions direct = LaunchOptions.inherit().withStdio(Redirect.from(Path.of("/dev/null").toFile()), devnull, devnull);
        PlanMessage full = PlanMessage.builder().program("/bin/true").argv("true").keepFds(0, 1, 2)
                .namespaces(EnumSet.allOf(PlanRecord.Namespace.class)).userMap(0, 0, 0, 0).mountProc().loopbackUp()
                .noNewPrivs().landlock(0xffff, 3, 3).landlockPath(0xffffL & ~0x5ff2L, "/usr")
                .landlockPath(0xffffL & ~0x5ff2L, "/etc").landlockPath(0xffff, "/tmp").landlockPort(2, 8080)
                .seccomp(0, LauncherRunTest.denyMkdir()).signals(PlanRecord.SignalTarget.PROGRAM, 1, 2, 15)
                .canary(8, 0, 83, "", "").build(); // the syscall canary: mkdir, which the filter denies
        try (ZygoteSupply zygote = new ZygoteSupply(launcher)) {
            LaunchOptions forked = direct.withZygote(Optional.of(zygote));
            for (int i = 0; i < 20; i++) {
                once(launcher, full, direct);
                once(launcher, full, forked);
            }
            long[][] d = new long[5][runs], z = new long[5][runs];
            var bean = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            String load0 = Files.readString(Path.of("/proc/loadavg")).trim();
            for (int i = 0; i < runs; i++) {
                boolean zFirst = i % 2 == 0;
                for (int k = 0; k < 2; k++) {
                    boolean isZ = (k == 0) == zFirst;
                    long cpu0 = bean.getProcessCpuTime();
                    long[] r = once(launcher, full, isZ ? forked : direct);
                    r[4] = bean.getProcessCpuTime() - cpu0;
                    for (int j = 0; j < 5; j++) {
                        (isZ ? z : d)[j][i] = r[j];
                    }
                }
            }
            System.out.printf("runs=%d alternated (medians, p90 in brackets), load %s at start, %s at end%n", runs, load0,
                    Files.readString(Path.of("/proc/loadavg")).trim());
            String[] names = {"end-to-end", "JVM start -> launcher start", "launcher start -> plan read",
                "plan read -> before execve (canary incl.)", "this JVM's CPU"};
            for (int j = 0; j < 4; j++) {
                System.out.printf("%-30s direct %s   forked %s%n", names[j], ms(d[j]), ms(z[j]));
            }
            // CPU time is counted in clock ticks: only the mean over the runs says anything.
            System.out.printf("%-30s direct %6.2f ms (mean)     forked %6.2f ms (mean)%n", names[4],
                    Arrays.stream(d[4]).average().orElse(0) / 1e6, Arrays.stream(z[4]).average().orElse(0) / 1e6);
        }
    }

    private static long[] once(Path launcher, PlanMessage plan, LaunchOptions opts) throws Exception {
        long t0 = System.nanoTime();
        try (LauncherProcess p = LauncherProcess.start(launcher, plan, opts)) {
            StartOutcome s = p.awaitStart();
            ExitOutcome e = p.waitFor();
            long t1 = System.nanoTime();
            if (!(s instanceof StartOutcome.Started) || !e.equals(new ExitOutcome.Exited(0))) {
                throw new IllegalStateException(s + " " + e + " " + p.transcript());
            }
            Map<String, Long> st = p.stamps();
            return new long[] {t1 - t0, st.get("start") - t0, st.get("plan") - st.get("start"),
                st.get("preexec") - st.get("plan"), 0};
        }
    }

    private static String ms(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return String.format("%6.2f ms [%6.2f]", s[s.length / 2] / 1e6, s[(int) (s.length * 0.9)] / 1e6);
    }
}
