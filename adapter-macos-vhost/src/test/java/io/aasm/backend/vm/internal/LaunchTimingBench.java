package io.aasm.backend.vm.internal;

import io.aasm.ports.backend.ExitDisposition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Not a test (surefire skips *Bench): prints the time of N launches of /bin/true in the guest, for working on
 * the restore path. Run with {@code mvn test-compile exec:java -Dexec.classpathScope=test ...} or from an IDE.
 * Performance is judged by the benchmark harness, never here.
 */
public final class LaunchTimingBench {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        QemuVmBackend b = new QemuVmBackend(Guests.settings("tcg"));
        Path dir = Files.createTempDirectory("vm-bench");
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            ExitDisposition d = b.runDirect(new io.aasm.ports.backend.ExecutionSpec("/bin/true", List.of(), dir.toString(),
                    io.aasm.ports.backend.IdentityRef.anonymous(), List.of(Guests.read(), Guests.write(dir.toString())),
                    Map.of(), io.aasm.ports.backend.CredentialPosture.none(), new io.aasm.ports.backend.Stdio.Inherit()));
            System.out.println("launch " + i + ": " + (System.nanoTime() - t0) / 1_000_000 + " ms " + d);
        }
        for (int i = 0; i < n; i++) { // the baseline in the same run: /bin/true unconfined
            long t0 = System.nanoTime();
            new ProcessBuilder("/bin/true").start().waitFor();
            System.out.println("unconfined " + i + ": " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
        System.exit(0);
    }
}
