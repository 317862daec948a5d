package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.evidence.ProcessAuthority;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The channel carries stdin, stdout, stderr and the exit status, and the report's authority is measured. */
class StdioAndExitTest {
    @Test
    void stdinReachesTheProgramAndItsStreamsComeBackApart(@TempDir Path dir) throws Exception {
        QemuVmBackend b = Guests.backend();
        byte[] big = new byte[1 << 20];
        new java.util.Random(7).nextBytes(big);
        Path in = Files.write(dir.resolve("in"), big);
        int[] fds = Spawned.files(in, dir.resolve("out"), dir.resolve("err"));
        try {
            ExecutionSpec spec = new ExecutionSpec("/bin/sh", List.of("-c", "cat; echo to-stderr >&2; exit 7"),
                    "/usr", IdentityRef.anonymous(), List.of(Guests.read()), Map.of(), CredentialPosture.none(),
                    new Stdio.Descriptors(fds[0], fds[1], fds[2]));
            Execution e = Spawned.spawn(b, spec);
            assertEquals(new ExitDisposition.Exited(7), e.await());
            ProcessAuthority a = e.authority().orElseThrow();
            assertTrue(a.measured() && a.clean(), "the program held capabilities in the guest: " + a.gaps());
        } finally {
            Spawned.close(fds);
        }
        assertTrue(java.util.Arrays.equals(big, Files.readAllBytes(dir.resolve("out"))), "stdout differs from stdin");
        assertEquals("to-stderr\n", Files.readString(dir.resolve("err")));
    }

    @Test
    void aSignalEndingTheProgramIsItsExitStatus(@TempDir Path dir) throws Exception {
        ExitDisposition d = Guests.backend().runDirect(new ExecutionSpec("/bin/sh", List.of("-c", "kill -9 $$"), "/usr",
                IdentityRef.anonymous(), List.of(Guests.read()), Map.of(), CredentialPosture.none(), new Stdio.Inherit()));
        assertEquals(new ExitDisposition.Signalled(9), d);
    }

    @Test
    void aProgramOutsideTheReadGrantsIsNotFound(@TempDir Path dir) throws Exception {
        Path tool = dir.resolve("tool");
        Files.copy(Path.of("/bin/true"), tool);
        try {
            Guests.backend().runDirect(new ExecutionSpec(tool.toString(), List.of(), "/usr", IdentityRef.anonymous(),
                    List.of(Guests.read()), Map.of(), CredentialPosture.none(), new Stdio.Inherit()));
            throw new AssertionError("a program outside the read grants was executed");
        } catch (LaunchException e) {
            assertEquals(LaunchFailureKind.NOT_FOUND, e.kind(), e.getMessage());
        }
        // control: the same program with its folder granted runs
        assertEquals(new ExitDisposition.Exited(0), Guests.backend().runDirect(new ExecutionSpec(tool.toString(),
                List.of(), "/usr", IdentityRef.anonymous(), List.of(Guests.read(dir.toString())), Map.of(),
                CredentialPosture.none(), new Stdio.Inherit())));
    }
}
