package io.aasm.backend.vm.internal;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Not a test (surefire skips *Bench): {@code /bin/true} through aasm-macos-vm's Java side on the stand-in (a
 * cold boot per launch, as the helper does today) and through aasm-qemu-vm (a template restore), alternated in
 * each round, with unconfined {@code /bin/true} as the baseline of the same round; prints the medians. Says
 * what the stand-in costs on this host, nothing about a Mac. Run with
 * {@code mvn exec:java -Dexec.classpathScope=test -Dexec.mainClass=io.aasm.backend.vm.internal.StandInTimingBench}.
 */
public final class StandInTimingBench {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path dir = Files.createTempDirectory("vz-bench");
        Path helper = StandIn.install(dir, "normal");
        MacosVmBackend vz = StandIn.backend(helper, StandIn.sha256(helper));
        QemuVmBackend qemu = new QemuVmBackend(Guests.settings("tcg"));
        ExecutionSpec spec = new ExecutionSpec("/bin/true", List.of(), "/usr", IdentityRef.anonymous(),
                List.of(Guests.read()), Map.of(), CredentialPosture.none(), new Stdio.Inherit());
        qemu.runDirect(spec); // the template exists before the first timed round
        List<Long> a = new ArrayList<>();
        List<Long> b = new ArrayList<>();
        List<Long> c = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            vz.runDirect(spec);
            a.add((System.nanoTime() - t0) / 1_000_000);
            t0 = System.nanoTime();
            qemu.runDirect(spec);
            b.add((System.nanoTime() - t0) / 1_000_000);
            t0 = System.nanoTime();
            new ProcessBuilder("/bin/true").start().waitFor();
            c.add((System.nanoTime() - t0) / 1_000_000);
            System.out.println("round " + i + ": stand-in " + a.get(i) + " ms, qemu restore " + b.get(i)
                    + " ms, unconfined " + c.get(i) + " ms");
        }
        System.out.println("median: stand-in " + median(a) + " ms, qemu restore " + median(b) + " ms, unconfined "
                + median(c) + " ms (" + n + " rounds)");
        System.exit(0);
    }

    private static long median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        s.sort(null);
        return s.get(s.size() / 2);
    }
}
