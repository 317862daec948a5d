package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** seccomp deny and allow lists by name, effect checked on the filesystem. */
class SyscallConfinementTest {
    @TempDir
    Path tmp;

    @Test
    void deniedCallHasNoEffectAndControlWithoutItDoes() throws Exception {
        Harness h = Harness.shared();
        Path made = tmp.resolve("made");
        String action = "mkdir " + made;
        h.sh(action, tmp, req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir", "mkdirat"))));
        assertFalse(Files.exists(made), "mkdir was denied, the directory must not exist");
        h.sh(action, tmp, req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir"))));
        h.sh(action, tmp, req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("acct"))));
        assertTrue(Files.isDirectory(made), "control: without mkdir/mkdirat on the list the directory appears");
    }

    @Test
    void allowListDeniesWhatIsNotListed() throws Exception {
        Harness h = Harness.shared();
        Path target = Files.writeString(tmp.resolve("f"), "orig");
        // /bin/true needs only the startup baseline; writing a file needs write(2).
        ExitDisposition ok = h.run(new io.aasm.ports.backend.ExecutionSpec("/bin/true", List.of(), tmp.toString(),
                io.aasm.ports.backend.IdentityRef.anonymous(), List.of(req(CapabilityDomain.SYSCALL,
                new Scope.Syscalls(SyscallMode.ALLOW, List.of()))), java.util.Map.of(),
                io.aasm.ports.backend.CredentialPosture.none(), new io.aasm.ports.backend.Stdio.Inherit()));
        assertEquals(new ExitDisposition.Exited(0), ok, "the startup baseline is enough to exec and exit");
        // Append, not overwrite: openat is in the startup baseline, so O_TRUNC alone would already change the file.
        String action = "echo changed >> " + target;
        List<String> shell = List.of("rt_sigaction", "rt_sigprocmask", "getpid", "getppid", "geteuid", "getuid",
                "getgid", "getegid", "wait4", "clone", "clone3", "fcntl", "dup2", "dup3", "ioctl", "stat", "lseek",
                "uname", "getcwd", "chdir", "sysinfo", "newfstatat", "execve", "pipe2", "pipe", "vfork", "fork");
        h.sh(action, tmp, req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW, shell)));
        assertEquals("orig", Files.readString(target), "write(2) not allowed: file unchanged");
        List<String> withWrite = new java.util.ArrayList<>(shell);
        withWrite.add("write");
        h.sh(action, tmp, req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW, withWrite)));
        assertEquals("origchanged\n", Files.readString(target), "control: with write(2) allowed the file changes");
    }

    @Test
    void unknownSyscallNameRefusesBeforeLaunch() {
        Harness h = Harness.shared();
        Path marker = tmp.resolve("ran");
        LaunchException e = assertThrows(LaunchException.class, () -> h.sh("touch " + marker, tmp,
                req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("no_such_syscall")))));
        assertTrue(e.getMessage().contains("unknown syscall name 'no_such_syscall'"), e.getMessage());
        assertFalse(Files.exists(marker));
        assertInstanceOf(io.aasm.ports.capability.SupportLevel.Unsupported.class, h.backend.plan(
                Harness.grandchild("/bin/sh", "true", tmp, java.util.Map.of(), List.of(req(CapabilityDomain.SYSCALL,
                        new Scope.Syscalls(SyscallMode.DENY, List.of("no_such_syscall"))))))
                .capabilities().reportFor(CapabilityDomain.SYSCALL).orElseThrow().support());
    }
}
