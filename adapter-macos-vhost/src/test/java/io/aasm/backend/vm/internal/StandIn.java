package io.aasm.backend.vm.internal;

import io.aasm.backend.vm.internal.image.Digests;
import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.backend.vm.internal.runtime.VmSettings;
import io.aasm.backend.vm.internal.vz.VzSettings;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchPosture;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.policy.ControlRequirement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * {@code aasm-macos-vm}'s Java side against the test-only stand-in helper (src/test/sh/aasm-vz-standin.sh: the
 * helper's contract, carried out by QEMU with the same guest image), with the macOS-only switch off, which no
 * configuration can do. A host without QEMU or a guest image cannot host these checks and says so.
 */
final class StandIn {
    static final Path SCRIPT = Path.of("src/test/sh/aasm-vz-standin.sh").toAbsolutePath();
    static final Path STATE = Path.of("target/vz-state").toAbsolutePath();

    private StandIn() {
    }

    /** The stand-in with its MODE line set, installed as an executable {@code aasm-vz} in {@code dir}. */
    static Path install(Path dir, String mode) throws IOException {
        String text = Files.readString(SCRIPT).replaceFirst("(?m)^MODE=normal$", "MODE=" + mode);
        Path p = Files.createTempDirectory(dir, mode + "-").resolve("aasm-vz"); // each its own: a test may swap it
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    static String sha256(Path p) throws IOException {
        return Digests.sha256(p);
    }

    /** The backend running {@code helper}, pinned to {@code pin}; real guests need QEMU and the built image. */
    static MacosVmBackend backend(Path helper, String pin) {
        Assumptions.assumeTrue(GuestImage.load(Guests.IMAGE).isPresent(), "environment cannot host this check: no "
                + "guest image in " + Guests.IMAGE + " (apt-get install linux-image-amd64, then build the module)");
        Assumptions.assumeTrue(Guests.onPath("qemu-system-x86_64"), "environment cannot host this check: "
                + "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)");
        return new MacosVmBackend(settings(Optional.of(helper), Optional.of(pin), false));
    }

    static VzSettings settings(Optional<Path> helper, Optional<String> pin, boolean macosOnly) {
        Settings.LibC c = com.sun.jna.Native.load("c", Settings.LibC.class);
        VmSettings vm = new VmSettings(STATE, STATE.resolve("probes"), Path.of(System.getProperty("java.io.tmpdir")),
                512, 1, 12, 180_000, 90_000, c.geteuid(), c.getegid());
        return new VzSettings(vm, helper, pin, Optional.of(Guests.IMAGE.toAbsolutePath()), macosOnly);
    }

    /**
     * Through the backend's prepare and spawn with every requirement enforced, as the kernel does after
     * negotiation; the plan is not the backend's own, so it lowers again and no probe suite runs.
     */
    static Execution spawn(MacosVmBackend b, ExecutionSpec spec) throws LaunchException {
        BackendPlan bp = new BackendPlan() {
            @Override
            public io.aasm.ports.capability.BackendCapabilities capabilities() {
                return b.capabilities();
            }

            @Override
            public List<String> steps(ControlRequirement requirement) {
                return List.of();
            }
        };
        List<PlannedRequirement> planned = spec.requirements().stream().map(r -> new PlannedRequirement(r,
                new RequirementOutcome.Enforced(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE), List.of()))
                .toList();
        try (PreparedLaunch p = b.prepare(new EnforcementPlan(b.identity(), spec, planned, LaunchPosture.READY, bp))) {
            return p.spawn();
        }
    }
}
