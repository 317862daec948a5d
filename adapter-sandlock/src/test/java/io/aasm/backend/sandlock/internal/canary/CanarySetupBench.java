package io.aasm.backend.sandlock.internal.canary;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Benchmark, not a test: the supervisor's per-launch canary setup and cleanup (every kind sandlock has),
 * three arms interleaved in one run: the shared folder ({@link CanaryBait} now), the folder per launch it
 * replaced (its file-system and listener calls, rebuilt here as they were), and nothing (canaries off).
 * Usage: CanarySetupBench [rounds] [root]
 */
public final class CanarySetupBench {
    private CanarySetupBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        Path root = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("aasm-canary-setup");
        CanaryChoice all = new CanaryChoice(EnumSet.allOf(CanaryKind.class), Optional.of(new CanaryChoice.Syscall(
                "mkdir", 83)), List.of(), OptionalLong.of(256));
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        long[] shared = new long[n];
        long[] perLaunch = new long[n];
        long[] off = new long[n];
        for (int i = -20; i < n; i++) {
            long[] t = new long[3];
            // rotate the order, so drift in load falls on every arm alike
            for (int k = 0; k < 3; k++) {
                int arm = (Math.floorMod(i, 3) + k) % 3;
                t[arm] = time(switch (arm) {
                    case 0 -> () -> {
                        try (CanaryBait bait = CanaryBait.open(all, root)) {
                            bait.escapedFromOutside();
                        }
                    };
                    case 1 -> () -> perLaunchFolder(root);
                    default -> () -> HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
                });
            }
            if (i >= 0) {
                shared[i] = t[0];
                perLaunch[i] = t[1];
                off[i] = t[2];
            }
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        System.out.printf("n=%d rounds; load before [%s] after [%s]%n", n, loadBefore, loadAfter);
        report("shared folder (now)   ", shared);
        report("folder per launch     ", perLaunch);
        report("canaries off          ", off);
        report("paired shared - off   ", minus(shared, off));
        report("paired per-launch - off", minus(perLaunch, off));
    }

    /** What CanaryBait.open and close did per launch before the folder was shared. */
    private static void perLaunchFolder(Path root) throws IOException {
        String nonce = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        Files.createDirectories(root, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path dir = Files.createDirectory(root.resolve("launch-" + nonce),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.writeString(dir.resolve("read-" + nonce), nonce);
        ServerSocketChannel s = ServerSocketChannel.open();
        s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 4);
        s.configureBlocking(false);
        Files.exists(dir.resolve("write-" + nonce));
        s.accept();
        s.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static long time(Step s) throws Exception {
        long t0 = System.nanoTime();
        s.run();
        return System.nanoTime() - t0;
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
