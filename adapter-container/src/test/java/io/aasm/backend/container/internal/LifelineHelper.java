package io.aasm.backend.container.internal;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import java.util.List;
import java.util.Map;

/**
 * A supervisor of its own (a separate JVM) for the lifeline tests: starts {@code sh -c "sleep 300" <marker>} in a
 * container, prints "started", then waits to be killed.
 */
public final class LifelineHelper {
    private LifelineHelper() {
    }

    public static void main(String[] args) throws Exception {
        ContainerBackend b = new ContainerBackend(Settings.defaults().withProbeCacheDir(Harness.cacheDir()));
        ExecutionSpec spec = new ExecutionSpec("/bin/sh", List.of("-c", "sleep 300", args[0]), "/", IdentityRef.anonymous(),
                List.of(Harness.read()), Map.of(), CredentialPosture.none(), new Stdio.Descriptors(-1, -1, -1));
        Execution x;
        try (var p = b.prepare(Harness.plan(b, spec))) {
            x = p.spawn();
        }
        System.out.println("started");
        System.out.flush();
        x.await();
    }
}
