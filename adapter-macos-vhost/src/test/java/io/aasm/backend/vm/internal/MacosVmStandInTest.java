package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.guest.ViewOp;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aasm-macos-vm} end to end against the stand-in helper, in real guests (TCG, a cold boot per launch):
 * the control channel over the helper's stdio, host-enforced read-only shares, the host's wall clock, and the
 * helper refused or refusing before anything runs. Every denial has its control that differs by one thing.
 */
class MacosVmStandInTest {
    @TempDir
    static Path helpers;

    @Test
    void stdinStdoutStderrAndTheExitStatusCrossTheHelpersStdio(@TempDir Path dir) throws Exception {
        Path helper = StandIn.install(helpers, "normal");
        MacosVmBackend b = StandIn.backend(helper, StandIn.sha256(helper));
        byte[] big = new byte[1 << 20];
        new java.util.Random(11).nextBytes(big);
        Path in = Files.write(dir.resolve("in"), big);
        int[] fds = Spawned.files(in, dir.resolve("out"), dir.resolve("err"));
        try {
            Execution e = StandIn.spawn(b, new ExecutionSpec("/bin/sh", List.of("-c", "cat; echo to-stderr >&2; exit 7"),
                    "/usr", IdentityRef.anonymous(), List.of(Guests.read()), Map.of(), CredentialPosture.none(),
                    new Stdio.Descriptors(fds[0], fds[1], fds[2])));
            assertEquals(new ExitDisposition.Exited(7), e.await());
        } finally {
            Spawned.close(fds);
        }
        assertTrue(java.util.Arrays.equals(big, Files.readAllBytes(dir.resolve("out"))), "stdout differs from stdin");
        assertEquals("to-stderr\n", Files.readString(dir.resolve("err")));
    }

    @Test
    void aReadOnlyShareIsUnchangedByteForByte(@TempDir Path dir) throws Exception {
        Path helper = StandIn.install(helpers, "normal");
        MacosVmBackend b = StandIn.backend(helper, StandIn.sha256(helper));
        Path shared = Files.createDirectories(dir.resolve("shared"));
        byte[] original = "original\n\u0000\u00ff".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        Path file = Files.write(shared.resolve("f"), original);
        Path out = Files.createDirectories(dir.resolve("out"));
        String action = "echo changed > " + file + "; echo changed >> " + file + "; touch " + shared.resolve("new");

        b.runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString()))));
        assertTrue(java.util.Arrays.equals(original, Files.readAllBytes(file)), "the read-only share was written");
        assertFalse(Files.exists(shared.resolve("new")), "a file was created in the read-only share");

        // control: the same action with the folder shared read-write
        b.runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString(), shared.toString()))));
        assertEquals("changed\nchanged\n", Files.readString(file));
        assertTrue(Files.exists(shared.resolve("new")));
    }

    /**
     * The same pair with the guest's own layers taken away (no Landlock, every share and bind mounted read-write
     * in the guest): what remains is the host's read-only share, which the helper's contract carries as
     * {@code share <tag> ro}. Control: the folder granted for writing, so its share is {@code rw}.
     */
    @Test
    void theHostAloneKeepsAReadOnlyShareWhenTheGuestDoesNot(@TempDir Path dir) throws Exception {
        Path helper = StandIn.install(helpers, "normal");
        MacosVmBackend b = StandIn.backend(helper, StandIn.sha256(helper));
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Path file = Files.writeString(shared.resolve("f"), "original");
        Path out = Files.createDirectories(dir.resolve("out"));
        String action = "echo changed > " + file + "; touch " + shared.resolve("new");

        b.runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString()))), MacosVmStandInTest::guestLayersOff);
        assertEquals("original", Files.readString(file), "the host let a read-only share be written");
        assertFalse(Files.exists(shared.resolve("new")), "the host let a file be created in a read-only share");

        // control: the same guest without its layers, the folder granted for writing too
        b.runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString(), shared.toString()))), MacosVmStandInTest::guestLayersOff);
        assertEquals("changed\n", Files.readString(file));
        assertTrue(Files.exists(shared.resolve("new")));
    }

    /** No Landlock, shares and binds read-write in the guest; "/" read-granted so no read canary refuses it. */
    static GuestPlan guestLayersOff(GuestPlan p) {
        List<GuestPlan.LandlockRule> rules = new java.util.ArrayList<>(p.rules());
        rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.READ, "/"));
        return new GuestPlan(p.program(), p.argv(), p.environment(), p.workingDirectory(), p.uid(), p.gid(),
                p.shares().stream().map(s -> new GuestPlan.Share(s.slot(), false)).toList(),
                p.view().stream().map(v -> v instanceof ViewOp.Bind x ? new ViewOp.Bind(x.slot(), false, x.subpath(),
                        x.target()) : v).toList(), p.rlimits(), p.memoryMax(), p.pidsMax(), false, rules, p.seccomp());
    }

    @Test
    void theHostEndsTheHelperAtTheWallClockCeiling(@TempDir Path dir) throws Exception {
        Path helper = StandIn.install(helpers, "normal");
        MacosVmBackend b = StandIn.backend(helper, StandIn.sha256(helper));
        Path out = Files.createDirectories(dir.resolve("out"));
        Path late = out.resolve("late");
        String action = "sleep 8; echo late > " + late;

        ExitDisposition d = b.runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(),
                Guests.write(out.toString()), wallClock(2))));
        Thread.sleep(1000); // nothing of the guest can write once its helper is gone; give a straggler the chance
        assertEquals(new ExitDisposition.Signalled(9), d);
        assertFalse(Files.exists(late), "the program outlived the wall-clock ceiling");

        // control: a ceiling the program stays within
        assertEquals(new ExitDisposition.Exited(0), b.runDirect(Guests.grandchild(action, out, Map.of(),
                List.of(Guests.read(), Guests.write(out.toString()), wallClock(120)))));
        assertEquals("late\n", Files.readString(late));
    }

    @Test
    void aHelperWithoutTheEntitlementIsARefusalAndNothingRuns(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path marker = out.resolve("ran");
        ExecutionSpec spec = Guests.grandchild("echo ran > " + marker, out, Map.of(), List.of(Guests.read(),
                Guests.write(out.toString())));

        // its check says so: the backend is unavailable with that reason, and a launch forced through fails
        Path unentitled = StandIn.install(helpers, "no-entitlement");
        MacosVmBackend b = StandIn.backend(unentitled, StandIn.sha256(unentitled));
        assertTrue(b.unavailable().orElseThrow().contains("[entitlement_missing]"), b.unavailable().toString());
        assertFalse(b.capabilities().available());
        assertTrue(b.capabilities().reports().isEmpty(), "an unavailable backend claimed a domain");
        LaunchException e = assertThrows(LaunchException.class, () -> b.runDirect(spec));
        assertTrue(e.getMessage().contains("[entitlement_missing]"), e.getMessage());
        assertFalse(Files.exists(marker), "a refused helper ran the program");

        // its check passes but its run exits 77: that launch fails so, and the backend is unavailable after it
        Path late = StandIn.install(helpers, "run-no-entitlement");
        MacosVmBackend c = StandIn.backend(late, StandIn.sha256(late));
        assertTrue(c.unavailable().isEmpty(), c.unavailable().toString());
        LaunchException f = assertThrows(LaunchException.class, () -> c.runDirect(spec));
        assertTrue(f.getMessage().contains("[entitlement_missing]"), f.getMessage());
        assertFalse(Files.exists(marker), "a refused helper ran the program");
        assertTrue(c.unavailable().orElseThrow().contains("[entitlement_missing]"), c.unavailable().toString());

        // control: the entitled helper runs the same launch
        Path good = StandIn.install(helpers, "normal");
        assertEquals(new ExitDisposition.Exited(0), StandIn.backend(good, StandIn.sha256(good)).runDirect(spec));
        assertEquals("ran\n", Files.readString(marker));
    }

    @Test
    void aHelperWhoseDigestDoesNotMatchItsPinIsNeverRun(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path marker = out.resolve("ran");
        ExecutionSpec spec = Guests.grandchild("echo ran > " + marker, out, Map.of(), List.of(Guests.read(),
                Guests.write(out.toString())));
        Path helper = StandIn.install(helpers, "normal");
        String pin = StandIn.sha256(helper);
        Path other = StandIn.install(helpers, "run-no-entitlement"); // any other bytes

        MacosVmBackend b = StandIn.backend(other, pin);
        assertTrue(b.unavailable().orElseThrow().contains("[helper_digest_mismatch]"), b.unavailable().toString());
        assertFalse(b.capabilities().available());
        LaunchException e = assertThrows(LaunchException.class, () -> b.runDirect(spec));
        assertTrue(e.getMessage().contains("[helper_digest_mismatch]"), e.getMessage());
        assertFalse(Files.exists(marker), "a helper that fails its pin ran the program");

        // the pin is checked at every start, not only at the listing: the right helper swapped for another
        MacosVmBackend s = StandIn.backend(helper, pin);
        assertTrue(s.unavailable().isEmpty(), s.unavailable().toString());
        swap(other, helper);
        LaunchException g = assertThrows(LaunchException.class, () -> s.runDirect(spec));
        assertTrue(g.getMessage().contains("[helper_digest_mismatch]"), g.getMessage());
        assertFalse(Files.exists(marker), "a swapped helper ran the program");

        // control: the pinned bytes back in place, the same backend runs the same launch
        swap(StandIn.install(helpers, "normal"), helper);
        assertEquals(new ExitDisposition.Exited(0), s.runDirect(spec));
        assertEquals("ran\n", Files.readString(marker));
    }

    /** Replaces the helper's bytes in place, mode kept (only the digest differs). */
    private static void swap(Path from, Path to) throws java.io.IOException {
        Files.write(to, Files.readAllBytes(from));
    }

    private static ControlRequirement wallClock(long seconds) {
        return ControlRequirement.strict(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.of(seconds), OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty()));
    }
}
