package io.aasm.backend.container.internal.canary;

import io.aasm.support.canary.CanaryListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Benchmark, not a test: the container supervisor's per-launch canary setup and cleanup (the read file, the
 * egress listener and the checks from outside; the other kinds cost the supervisor nothing), three arms
 * interleaved in one run, their order rotated: {@link CanaryBait} now (the shared folder), the folder per
 * launch it replaced (its calls rebuilt here as they were), and canaries off (a nonce only).
 * Usage: CanarySetupBench [rounds] [root]
 */
public final class CanarySetupBench {
    private CanarySetupBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        Path root = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("aasm-container-canary-setup");
        CanaryChoice all = new CanaryChoice(EnumSet.of(CanaryKind.FS_READ, CanaryKind.EGRESS, CanaryKind.SIGNAL,
                CanaryKind.PROCESS), Optional.empty());
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        long[][] t = new long[3][n];
        for (int i = -20; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                int arm = (Math.floorMod(i, 3) + k) % 3;
                long t0 = System.nanoTime();
                switch (arm) {
                    case 0 -> {
                        try (CanaryBait bait = CanaryBait.open(all, root, false)) {
                            bait.initWords();
                            bait.escapedFromOutside();
                        }
                    }
                    case 1 -> perLaunchFolder(root);
                    default -> HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
                }
                if (i >= 0) {
                    t[arm][i] = System.nanoTime() - t0;
                }
            }
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        System.out.printf("n=%d rounds; load before [%s] after [%s]%n", n, loadBefore, loadAfter);
        report("shared folder (now)    ", t[0]);
        report("folder per launch      ", t[1]);
        report("canaries off           ", t[2]);
        report("paired shared - off    ", minus(t[0], t[2]));
        report("paired per-launch - off", minus(t[1], t[2]));
    }

    /** What CanaryBait.open and close did per launch before the folder was shared (commit 061907d). */
    private static void perLaunchFolder(Path root) throws IOException {
        String nonce = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        Files.createDirectories(root, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path dir = Files.createDirectory(root.resolve("launch-" + nonce),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.writeString(dir.resolve("read-" + nonce), nonce);
        Optional<CanaryListener> listener = CanaryListener.open(port -> false);
        listener.ifPresent(CanaryListener::reached);
        listener.ifPresent(CanaryListener::close);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static long[] minus(long[] a, long[] b) {
        long[] d = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
        }
        return d;
    }

    private static void report(String name, long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        System.out.printf("%s median %7.3f ms  p25 %7.3f  p75 %7.3f  p90 %7.3f%n", name, s[s.length / 2] / 1e6,
                s[s.length / 4] / 1e6, s[s.length * 3 / 4] / 1e6, s[s.length * 9 / 10] / 1e6);
    }
}
