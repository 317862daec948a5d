package io.aasm.backend.sandlock.internal;

import io.aasm.ports.backend.Execution;
import io.aasm.ports.evidence.EvidenceRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A supervising JVM for the lifeline tests: launches, through the real sandlock, a program that leaves a
 * setsid daemon behind, prints the guard's line ("guard pid N, cgroup X, sandlock pid M"), then waits to
 * be SIGKILLed. Args: cache dir, sys root, script.
 */
public final class LifelineHelper {
    private LifelineHelper() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> env = new java.util.HashMap<>();
        java.util.Optional.ofNullable(System.getenv("AA_SANDLOCK_BIN")).ifPresent(v -> env.put("AA_SANDLOCK_BIN", v));
        SandlockBackend b = new SandlockBackend(Fixtures.settings(env, Path.of(args[0]), Path.of(args[1]), false));
        Execution h = b.prepare(Fixtures.plan(Fixtures.spec("/bin/sh", List.of("-c", args[2]),
                List.of(), Map.of()))).spawn();
        for (int i = 0; i < 500; i++) {
            String line = h.evidence().records().stream().map(EvidenceRecord::detail)
                    .filter(d -> d.startsWith("guard pid ") && d.contains("sandlock pid")).findFirst().orElse(null);
            if (line != null) {
                System.out.println(line);
                System.out.flush();
                break;
            }
            Thread.sleep(10);
        }
        Thread.sleep(600_000);
    }
}
