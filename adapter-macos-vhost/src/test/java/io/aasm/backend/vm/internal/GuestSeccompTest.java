package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syscall policy compiled by name in a real x86_64 guest (protocol version 4): the host sends names, the agent
 * compiles them with its own libseccomp. The acting process is the launched shell's grandchild; the effect is
 * looked for on the host through the read-write share. Each denial has a control that differs by one name.
 */
class GuestSeccompTest {
    @Test
    void aDeniedCallFailsWithEpermInTheGuest(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        assertEquals(new ExitDisposition.Exited(0), Guests.backend().runDirect(mkdir(out, "mkdir", "mkdirat",
                "fchmodat")));
        assertFalse(Files.exists(out.resolve("made")), "the policy let mkdir through");
        assertTrue(Files.readString(out.resolve("err")).contains("Operation not permitted"),
                Files.readString(out.resolve("err")));

        // Control: the same policy without mkdir and mkdirat: the directory appears on the host.
        Path control = Files.createDirectories(dir.resolve("control"));
        assertEquals(new ExitDisposition.Exited(0), Guests.backend().runDirect(mkdir(control, "fchmodat")));
        assertTrue(Files.isDirectory(control.resolve("made")), "the control could not create its directory");
        assertEquals("", Files.readString(control.resolve("err")));
    }

    @Test
    void aNameTheGuestDoesNotKnowIsRefusedBeforeTheProgramRuns(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        LaunchException e = assertThrows(LaunchException.class, () -> Guests.backend().runDirect(mkdir(out, "mkdir",
                "nosuchcall")));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, e.kind());
        assertTrue(e.getMessage().contains("(seccomp): unknown system call 'nosuchcall' on x86_64"), e.getMessage());
        assertFalse(Files.exists(out.resolve("err")), "the program ran although its plan was refused");

        // Control: without the unknown name the same launch runs (and its mkdir is denied).
        assertEquals(new ExitDisposition.Exited(0), Guests.backend().runDirect(mkdir(out, "mkdir", "mkdirat")));
        assertTrue(Files.exists(out.resolve("err")), "the control did not run");
        assertFalse(Files.exists(out.resolve("made")));
    }

    private static ExecutionSpec mkdir(Path out, String... denied) {
        return Guests.grandchild("mkdir " + out.resolve("made") + " 2> " + out.resolve("err"), out, Map.of(),
                List.of(Guests.read(), Guests.write(out.toString()), ControlRequirement.strict(CapabilityDomain.SYSCALL,
                        new Scope.Syscalls(SyscallMode.DENY, List.of(denied)))));
    }
}
