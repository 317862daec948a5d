package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.AuditLogFile;
import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A program appends a forged record to aasm's audit log and rewrites it without its first record, under a
 * write grant of the state folder's parent: only the protected-paths rule stands between the grant and the
 * log (a launch that could rewrite the log could erase its own record). The same append and rewrite of a
 * sibling file under the same grant, first in the same script, show that the action works: that is the
 * control. The effect: the bytes the log held before the trial are no longer its first bytes, the forged
 * line is in it, or {@code aasm audit verify} of the installation fails. Hosted only inside an installation,
 * where the boot jar protects the state folder and {@code bin/aasm audit verify} exists. Unconfined the
 * log is damaged for real; the suite puts it back (see {@link AuditLogFile#restore}).
 */
final class AuditLogScenario {
    private AuditLogScenario() {
    }

    static Scenario tamper() {
        String name = "surr-state-audit-log-tamper";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE,
                "append a forged record to aasm's audit log and rewrite it, under a write grant of its folder's parent",
                b -> {
                    Optional<Path> home = b.tools().aasmHome();
                    AuditLogFile audit = AuditLogFile.ofThisUser();
                    if (home.isEmpty()) {
                        return new Staging.CannotHost("needs an installation: the boot jar protects the state folder,"
                                + " bin/aasm audit verify checks the log");
                    }
                    if (!Files.isRegularFile(audit.log())) {
                        return new Staging.CannotHost("no audit log at " + audit.log() + " yet (or io.aasm.audit"
                                + " writes elsewhere)");
                    }
                    return stage(b, name, home.get(), audit);
                });
    }

    private static Staging stage(Bench b, String name, Path home, AuditLogFile audit) throws IOException {
        Path log = audit.log().toRealPath();
        Path parent = audit.stateDir().toRealPath().getParent();
        Path sibling = parent.resolve("aasm-conformance-sibling-" + b.tools().canary() + ".jsonl");
        String first = "first-" + b.tools().canary();
        String forged = "{\"forged\":\"" + b.tools().canary() + "\"}";
        AtomicReference<byte[]> before = new AtomicReference<>(audit.bytes());
        Staged.Chore seed = () -> Files.writeString(sibling, first + "\nsecond\n");
        seed.run();
        StringBuilder script = new StringBuilder();
        int n = 0;
        for (Path target : List.of(sibling, log)) {
            Path rest = b.out().resolve("rest." + n++);
            script.append("printf '%s\\n' '").append(forged).append("' >> ").append(target)
                    .append("; echo \"append ").append(target).append(": $?\"\n")
                    .append("sed 1d ").append(target).append(" > ").append(rest).append("; cat ").append(rest)
                    .append(" > ").append(target).append("; echo \"rewrite ").append(target).append(": $?\"\n");
        }
        Staged.Observation effect = () -> {
            String s = Files.exists(sibling) ? Trees.read(sibling) : "";
            boolean siblingChanged = s.contains(forged) && !s.contains(first);
            boolean kept = audit.keeps(before.get());
            boolean forgedIn = new String(audit.bytes(), java.nio.charset.StandardCharsets.UTF_8).contains(forged);
            AuditLogFile.Verification v = AuditLogFile.verify(home);
            if (!kept || forgedIn || !v.intact()) {
                return Effect.happened(log + (kept ? "" : " no longer begins with its " + before.get().length
                        + " bytes from before the trial") + (forgedIn ? "; the forged line is in it" : "")
                        + "; aasm audit verify: exit " + v.exit() + ", " + v.firstLine());
            }
            String intact = log + " unchanged byte for byte (its " + before.get().length + " bytes from before the trial"
                    + " still lead it; only the kernel's records follow), aasm audit verify: " + v.firstLine();
            return siblingChanged
                    ? Effect.absentAfterAction(intact + "; the same append and rewrite changed " + sibling
                            + " under the same grant")
                    : Effect.absent(intact + "; " + sibling + " was not changed either");
        };
        Staged.Chore putBack = () -> audit.restore(before.get());
        Staged.Chore reset = () -> {
            putBack.run();
            before.set(audit.bytes());
            b.clearOut();
            seed.run();
        };
        String policy = b.policy(name).section(b.filesystem(List.of(), List.of(parent.toString()))).text();
        // the sibling's change in the same run is the control: the policy is the one under test both times
        return new Staging.Ready(new Staged(policy, policy, "none: the same append and rewrite of " + sibling
                + " under the same grant, in the same run, is the control", script.toString(), effect, reset,
                putBack.andThen(() -> Files.deleteIfExists(sibling)), Optional.empty()));
    }
}
