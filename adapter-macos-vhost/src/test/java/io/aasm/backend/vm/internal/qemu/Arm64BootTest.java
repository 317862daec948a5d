package io.aasm.backend.vm.internal.qemu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.FrameChannel;
import io.aasm.backend.vm.internal.guest.GuestEnd;
import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.guest.Hello;
import io.aasm.backend.vm.internal.guest.PlanEncoder;
import io.aasm.backend.vm.internal.guest.StartOutcome;
import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.backend.vm.internal.lower.VmLowerer;
import io.aasm.backend.vm.internal.lower.VmLowering;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.io.ByteArrayOutputStream;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The arm64 guest image the build assembled (target/guest-image-arm64) booted under {@code qemu-system-aarch64 -M
 * virt}, TCG: the cross-compiled agent says hello, receives a plan lowered by the real {@link VmLowerer}, compiles
 * its seccomp programs for arm64, runs busybox's {@code true} and {@code cat} of a file through a read-only 9p
 * share (the guest cannot run the host's x86_64 /bin/true: busybox-static:arm64 is shared in), and returns the
 * exit status. The file's random content arriving on stdout is the effect; the policy denies {@code mkdirat},
 * so busybox's mkdir on the read-only share answers EPERM (the filter, compiled in the guest, acts before the
 * filesystem, which would answer EROFS, and before Landlock, which would answer EACCES). Only an absent emulator
 * makes this "environment cannot host this check"; an absent image fails, with the build's reason.
 */
class Arm64BootTest {
    private static final Path IMAGE = Path.of(System.getProperty("aasm.vm.arm64.image.dir", "target/guest-image-arm64"));
    private static final Path USERLAND = Path.of(System.getProperty("aasm.vm.arm64.userland", "target/arm64-userland"))
            .toAbsolutePath();

    @Test
    void theArm64GuestRunsAProgramThroughAShareAndReturnsItsStatus(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(onPath("qemu-system-aarch64"), "environment cannot host this check: "
                + "qemu-system-aarch64 is not installed (apt-get install qemu-system-arm)");
        GuestImage image = GuestImage.load(IMAGE).orElseThrow(() -> new AssertionError("no arm64 guest image in "
                + IMAGE + ": the build's \"[aasm-vm] arm64 guest image not built\" line says why (.ci/run installs "
                + "gcc-aarch64-linux-gnu, libseccomp-dev:arm64 and fetches the arm64 packages)"));
        Path busybox = USERLAND.resolve("bin/busybox");
        assertTrue(Files.isRegularFile(busybox), "no busybox-static:arm64 in " + USERLAND);
        Path share = Files.createDirectories(dir.resolve("share"));
        String nonce = HexFormat.of().formatHex(new SecureRandom().generateSeed(8));
        Files.writeString(share.resolve("data.txt"), "read through the share " + nonce + "\n");

        String bb = busybox.toString();
        String script = bb + " true && " + bb + " cat " + share.resolve("data.txt") + " && " + bb + " mkdir "
                + share.resolve("made") + " 2>&1; exit 7";
        ExecutionSpec spec = new ExecutionSpec(bb, List.of("sh", "-c", script), share.toString(),
                IdentityRef.anonymous(), List.of(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_READ,
                new Scope.Paths(List.of(USERLAND.toString(), share.toString()))), ControlRequirement.strict(
                CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of())), ControlRequirement.strict(
                CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdirat")))), Map.of(),
                CredentialPosture.none(), new Stdio.Inherit());
        VmLowering lowered = new VmLowerer(4, List.of()).lower(spec, spec.requirements(), 0, 0);
        VmLaunch launch = assertInstanceOf(VmLowering.Lowered.class, lowered, lowered.toString()).launch();

        Path console = dir.resolve("console.log");
        List<String> cmd = new ArrayList<>(List.of("qemu-system-aarch64", "-accel", "tcg,tb-size=128", "-M", "virt",
                "-cpu", "cortex-a57", "-smp", "1", "-m", "512M", "-nodefaults", "-no-user-config", "-display", "none",
                "-serial", "file:" + console, "-no-reboot", "-kernel", image.kernel().toString(), "-initrd",
                image.initramfs().toString(), "-append", image.cmdline(), "-device", "virtio-serial-pci,id=vser",
                "-chardev", "socket,id=ctl,path=" + dir.resolve("ctl.sock"), "-device",
                "virtserialport,chardev=ctl,name=ctl"));
        for (VmLaunch.ShareSlot s : launch.slots()) {
            cmd.addAll(List.of("-fsdev", "local,id=fs" + s.slot() + ",path=" + s.hostPath() + ",security_model=none,"
                    + "multidevs=remap" + (s.readOnly() ? ",readonly=on" : ""), "-device", "virtio-9p-pci,fsdev=fs"
                    + s.slot() + ",mount_tag=s" + s.slot()));
        }
        long t0 = System.nanoTime();
        Process qemu;
        SocketChannel c;
        try (Listener ctl = new Listener(dir.resolve("ctl.sock"))) {
            qemu = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("qemu.log").toFile())
                    .start();
            c = ctl.accept(60_000, qemu);
        }
        try (GuestSession s = new GuestSession(new FrameChannel(DuplexStreams.input(c), DuplexStreams.output(c), c))) {
            Hello hello = s.hello();
            long helloMs = (System.nanoTime() - t0) / 1_000_000L;
            assertEquals(Optional.empty(), hello.unusable(), hello.toString());
            assertTrue(hello.kernel().endsWith("-arm64"), hello.toString());
            StartOutcome started = s.start(PlanEncoder.encode(launch.plan(), new SecureRandom().generateSeed(32),
                    Instant.now()));
            assertInstanceOf(StartOutcome.Started.class, started, started.toString());
            java.util.Map<String, String> fields = ((StartOutcome.Started) started).fields();
            assertTrue(fields.getOrDefault("seccomp_skipped", "").matches("\\d+")
                    && fields.getOrDefault("seccomp_us", "").matches("\\d+"), fields.toString());
            String compileUs = fields.get("seccomp_us");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            s.relay(buf -> -1, out::write, out::write);
            GuestEnd end = s.awaitEnd(300_000).orElseThrow(() -> new AssertionError("no exit within 300 s"));
            long endMs = (System.nanoTime() - t0) / 1_000_000L;
            String text = out.toString(StandardCharsets.UTF_8);
            assertInstanceOf(GuestEnd.Exited.class, end, end + " " + text);
            assertEquals(7, ((GuestEnd.Exited) end).code(), text);
            assertTrue(text.contains("read through the share " + nonce + "\n"), text);
            assertTrue(text.contains("Operation not permitted"), text);
            assertTrue(!Files.exists(share.resolve("made")));
            System.out.println("[arm64-boot] hello after " + helloMs + " ms, exit after " + endMs + " ms (TCG); seccomp "
                    + "programs compiled in the guest in " + compileUs + " µs, optional rules skipped: "
                    + fields.get("seccomp_skipped"));
        } finally {
            qemu.destroyForcibly().waitFor();
        }
    }

    private static boolean onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        return false;
    }
}
