package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.guest.PlanEncoder;
import io.aasm.backend.vm.internal.guest.ShareTransport;
import io.aasm.backend.vm.internal.guest.StartOutcome;
import io.aasm.backend.vm.internal.guest.ViewOp;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.backend.vm.internal.qemu.QemuHypervisor;
import io.aasm.backend.vm.internal.qemu.QemuSettings;
import io.aasm.backend.vm.internal.qemu.Spawner;
import io.aasm.backend.vm.internal.runtime.Machine;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real guest's agent, over each transport, given a plan whose first share names a transport it does not know:
 * it refuses the plan (bad_plan) and runs nothing, so the program's mark never reaches the host. Control: the
 * same plan with the transport the machine has runs the program, and the mark arrives through the writable share.
 */
class UnknownTransportTest {
    private static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor();

    @AfterAll
    static void stop() {
        TIMERS.shutdownNow();
    }

    @Test
    void overNineP(@TempDir Path dir) throws Exception {
        Guests.backend(); // the environment checks
        check(Guests.settings("tcg"), dir);
    }

    @Test
    void overVirtiofs(@TempDir Path dir) throws Exception {
        VirtiofsShareTest.virtiofs(); // the environment checks, virtiofsd's included
        check(Guests.settings("tcg").withShares(ShareTransport.VIRTIOFS), dir);
    }

    private static void check(QemuSettings settings, Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path mark = out.resolve("mark");
        List<VmLaunch.ShareSlot> slots = List.of(new VmLaunch.ShareSlot(0, "/usr", true),
                new VmLaunch.ShareSlot(1, out.toString(), false));
        try (Spawner spawner = new Spawner(settings.setpriv(), settings.vm().uid() == 0)) {
            QemuHypervisor h = new QemuHypervisor(settings, spawner, TIMERS);
            try (Machine m = h.start(slots)) {
                StartOutcome o = new GuestSession(m.channel()).start(withTransport(plan(m.transport()), 9));
                StartOutcome.Refused r = assertInstanceOf(StartOutcome.Refused.class, o);
                assertEquals("bad_plan", r.token());
                assertTrue(r.detail().contains("transport 9"), r.detail());
            }
            assertFalse(Files.exists(mark), "the program ran although its plan was refused");

            // control: the transport the machine carries
            try (Machine m = h.start(slots)) {
                assertInstanceOf(StartOutcome.Started.class, new GuestSession(m.channel()).start(plan(m.transport())));
                long deadline = System.nanoTime() + 120_000_000_000L;
                // the condition itself: the mark's whole content arriving through the writable share (the shell
                // creates the file before it writes to it)
                while (!read(mark).equals("ran\n") && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertEquals("ran\n", read(mark));
            }
        }
    }

    private static String read(Path p) throws java.io.IOException {
        return Files.exists(p) ? Files.readString(p) : "";
    }

    /** /usr read-only at /usr with the merged-/usr links, the out folder read-write at /out; no layers. */
    private static byte[] plan(ShareTransport t) {
        GuestPlan p = new GuestPlan("/bin/sh", List.of("sh", "-c", "echo ran > /out/mark"), Map.of(), "/", 0, 0,
                List.of(new GuestPlan.Share(0, true), new GuestPlan.Share(1, false)),
                List.of(new ViewOp.Bind(0, true, "", "/usr"), new ViewOp.Symlink("/bin", "usr/bin"),
                        new ViewOp.Symlink("/lib", "usr/lib"), new ViewOp.Symlink("/lib64", "usr/lib64"),
                        new ViewOp.Bind(1, false, "", "/out")), List.of(), OptionalLong.empty(), OptionalLong.empty(),
                false, List.of(), List.of());
        byte[] seed = new byte[32];
        new java.security.SecureRandom().nextBytes(seed);
        return PlanEncoder.encode(p, seed, Instant.now(), Optional.empty(), OptionalInt.empty(), t);
    }

    /** The plan with its first share record's transport byte replaced. */
    private static byte[] withTransport(byte[] plan, int transport) {
        ByteBuffer b = ByteBuffer.wrap(plan);
        for (int at = 6; at < plan.length; at += 6 + b.getInt(at + 2)) {
            if (b.getShort(at) == 0x20) {
                plan[at + 6 + 2] = (byte) transport;
                return plan;
            }
        }
        throw new AssertionError("no share record");
    }
}
