package io.aasm.backend.landlockseccomp.internal.kernel;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Run by {@link UnprivilegedBackendTest} as uid 65534: the same backend, no root. Leaves effects in
 * files under its work directory for the test to check, and prints the refusal it meets.
 */
public final class UnprivilegedMain {
    private UnprivilegedMain() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        LandlockSeccompBackend b = new LandlockSeccompBackend(LandlockSeccompSettings.defaults().withProbeCacheDir(work.resolve("probes")));
        Harness h = new Harness(b);
        System.out.println("RESULT euid_root=" + b.facts().root());
        Path out = Files.createDirectories(work.resolve("out"));
        Path data = work.resolve("data");
        String action = "echo changed >> " + data.resolve("target");
        h.sh(action, work, Harness.read(), Harness.write(out.toString()));
        Files.copy(data.resolve("target"), out.resolve("after-denial"));
        h.sh(action, work, Harness.read(), Harness.write(out.toString(), data.toString()));
        Files.copy(data.resolve("target"), out.resolve("after-control"));
        h.run(Harness.grandchild("/bin/sh", "env > " + out.resolve("env") + "; cat /proc/1/environ > "
                + out.resolve("pid1-environ") + "; echo $$ > " + out.resolve("pid"), work,
                Map.of("KEEP", "1", "DROP", "1"), List.of(Harness.req(CapabilityDomain.CREDENTIAL,
                        new Scope.Delegated(List.of("KEEP"))))));
        try {
            h.sh("true", work, Harness.req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(8)));
            System.out.println("RESULT ceiling=launched");
        } catch (LaunchException e) {
            System.out.println("RESULT ceiling=refused " + e.getMessage().replace('\n', ' '));
        }
        System.exit(0);
    }
}
