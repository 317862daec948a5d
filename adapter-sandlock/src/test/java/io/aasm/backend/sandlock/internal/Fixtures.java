package io.aasm.backend.sandlock.internal;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.LaunchPosture;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Specs, plans and settings for the adapter's tests. */
final class Fixtures {
    static final String STAND_IN = "non-confining-stand-in.sh";
    /** The system paths a dynamically linked program needs to start (those present on this host). */
    static final List<String> SYSTEM = List.of("/usr", "/bin", "/lib", "/lib64", "/sbin").stream()
            .filter(p -> Files.isDirectory(Path.of(p))).toList();

    private Fixtures() {
    }

    static ExecutionSpec spec(String program, List<String> args, List<ControlRequirement> reqs, Map<String, String> env) {
        return new ExecutionSpec(program, args, "/", IdentityRef.anonymous(), reqs, env, CredentialPosture.none(),
                new Stdio.Inherit());
    }

    static ControlRequirement req(CapabilityDomain d, Scope s) {
        return ControlRequirement.strict(d, s);
    }

    static Scope.Limits wallClock(long seconds) {
        return new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.of(seconds),
                OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
    }

    /** A plan as negotiation would build it when every requirement is met. */
    static EnforcementPlan plan(ExecutionSpec spec) {
        List<PlannedRequirement> planned = spec.requirements().stream().map(r -> new PlannedRequirement(r,
                new RequirementOutcome.Enforced(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE), List.of()))
                .toList();
        return new EnforcementPlan(new BackendIdentity("sandlock", "0.8.6", new Provenance("x", "Apache-2.0", false,
                Optional.empty(), ProvenanceStatus.UNVERIFIED)), spec, planned, LaunchPosture.READY,
                new SandlockPlan(io.aasm.ports.capability.BackendCapabilities.unavailable("fixture",
                        io.aasm.ports.capability.PlatformBoundary.SHARED_HOST_KERNEL), java.util.Map.of(),
                        new io.aasm.ports.evidence.DescriptorInventory(true, List.of(0, 1, 2), List.of(), List.of())));
    }

    static Settings settings(Map<String, String> env, Path cache, Path sysRoot, boolean requireVerified) {
        Map<String, String> copy = new HashMap<>(env);
        return new Settings(n -> Optional.ofNullable(copy.get(n)), requireVerified, cache, sysRoot, Path.of("/proc"),
                Path.of("/dev/shm"),
                2000);
    }

    /**
     * A backend driving the real sandlock found like the backend finds it (AA_SANDLOCK_BIN, then PATH);
     * without one the calling test is reported "environment cannot host this check" — never a stand-in.
     */
    static SandlockBackend realOrCannotHost(Path dir, Path sysRoot) {
        return realOrCannotHost(dir, sysRoot, true);
    }

    /** As above, with the canaries switched on or off. */
    static SandlockBackend realOrCannotHost(Path dir, Path sysRoot, boolean canaries) {
        Map<String, String> env = new HashMap<>();
        Optional.ofNullable(System.getenv("AA_SANDLOCK_BIN")).ifPresent(v -> env.put("AA_SANDLOCK_BIN", v));
        Optional.ofNullable(System.getenv("PATH")).ifPresent(v -> env.put("PATH", v));
        // One probe cache for every real-sandlock test of this build: the key (boot, kernel, digests, probe set)
        // is the same for all of them, so the controlled pairs run once, not once per test.
        Settings s = settings(env, Path.of("target", "real-sandlock-probe-cache").toAbsolutePath(), sysRoot, false);
        SandlockBackend b = new SandlockBackend(new Settings(s.env(), s.requireVerifiedProvenance(), s.probeCacheDir(),
                s.sysRoot(), s.procRoot(), s.shmRoot(), s.terminateGraceMillis(), canaries));
        boolean found = b.capabilities().available();
        if (!found) {
            b.deactivate();
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(found, "environment cannot host this check: no usable sandlock"
                + " executable (set AA_SANDLOCK_BIN): " + b.capabilities().availability());
        return b;
    }

    static ControlRequirement reads(String... extra) {
        List<String> paths = new java.util.ArrayList<>(SYSTEM);
        paths.addAll(List.of(extra));
        return req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(paths));
    }

    /** A plan whose requirements carry the given outcome (e.g. degraded) instead of enforced. */
    static EnforcementPlan plan(ExecutionSpec spec, RequirementOutcome outcome) {
        List<PlannedRequirement> planned = spec.requirements().stream().map(r -> new PlannedRequirement(r, outcome,
                List.of())).toList();
        return new EnforcementPlan(plan(spec).backend(), spec, planned, LaunchPosture.DEGRADED, plan(spec).backendPlan());
    }

    /** Copies the test-only stand-in out of the classpath and makes it executable. */
    static Path standIn(Path dir) throws IOException {
        Path out = dir.resolve("standin").resolve(STAND_IN);
        Files.createDirectories(out.getParent());
        try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream(STAND_IN)) {
            Files.copy(in, out);
        }
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
        return out;
    }

    static Path script(Path dir, String name, String body) throws IOException {
        Path out = dir.resolve(name);
        Files.writeString(out, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
        return out;
    }
}
