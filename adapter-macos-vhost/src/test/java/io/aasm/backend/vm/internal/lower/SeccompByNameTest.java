package io.aasm.backend.vm.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.guest.PlanCheck;
import io.aasm.backend.vm.internal.guest.PlanEncoder;
import io.aasm.ports.policy.SyscallMode;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The host describes seccomp programs by call name and the guest agent compiles them for its own architecture
 * (filter.c, here with this host's libseccomp.a through {@link PlanCheck}; on a guest by the real agent:
 * GuestSeccompTest). A required name the architecture does not have refuses the plan; an optional one (the
 * baseline's, fork and vfork) is skipped and counted.
 */
class SeccompByNameTest {
    private static final SeccompPrograms PROGRAMS = new SeccompPrograms();

    @BeforeAll
    static void compile() throws Exception {
        PlanCheck.compile();
    }

    @Test
    void everyProgramCompilesInTheAgent() throws Exception {
        String out = check(PROGRAMS.baseline(), PROGRAMS.noFork(), PROGRAMS.policy(SyscallMode.ALLOW,
                List.of("write", "mkdir")));
        assertTrue(out.matches("ok mask=0 nonce= bpf0=\\d+ bpf1=\\d+ bpf2=\\d+ skipped=\\d+"), out);
        // x86_64 has fork and vfork: the no-fork program skips nothing there (the baseline may: libseccomp 2.5.4
        // predates open_tree_attr).
        assertEquals("ok mask=0 nonce= bpf0=" + bpf(out, 1) + " skipped=0", check(PROGRAMS.noFork()));
    }

    @Test
    void aPolicyNameTheGuestDoesNotKnowRefusesThePlan() throws Exception {
        assertEquals("refused seccomp:unknown system call 'nosuchcall' on x86_64",
                check(PROGRAMS.policy(SyscallMode.DENY, List.of("mkdir", "nosuchcall"))));
        // A call of another architecture only (arm's) is no call here either: refused, never dropped.
        assertEquals("refused seccomp:unknown system call 'arm_fadvise64_64' on x86_64",
                check(PROGRAMS.policy(SyscallMode.ALLOW, List.of("write", "arm_fadvise64_64"))));
        // Control: the same lists without that name compile.
        assertTrue(check(PROGRAMS.policy(SyscallMode.DENY, List.of("mkdir"))).startsWith("ok "));
        assertTrue(check(PROGRAMS.policy(SyscallMode.ALLOW, List.of("write"))).startsWith("ok "));
    }

    @Test
    void optionalRulesAreSkippedAndCounted() throws Exception {
        byte[] p = Seccomp.describe(Seccomp.ALLOW, List.of(Seccomp.Rule.plain("mkdir", Seccomp.EPERM),
                Seccomp.Rule.plain("arm_fadvise64_64", Seccomp.EPERM).optionalHere()));
        assertTrue(check(p).endsWith(" skipped=1"), check(p));
    }

    @Test
    void malformedNamesAndProgramsNeverReachTheGuest() throws Exception {
        assertThrows(IOException.class, () -> PROGRAMS.policy(SyscallMode.DENY, List.of("mkdir;reboot")));
        byte[] p = PROGRAMS.noFork();
        byte[] cut = java.util.Arrays.copyOf(p, p.length - 1);
        assertEquals("refused bad_plan:seccomp program 0 malformed", check(cut));
        byte[] kill = p.clone();
        kill[0] = 0; // default action 0x00000000 (kill the thread): never one the host lowers to
        kill[1] = 0;
        assertEquals("refused bad_plan:seccomp program 0 malformed", check(kill));
    }

    private static String check(byte[]... programs) throws Exception {
        GuestPlan plan = new GuestPlan("/bin/true", List.of("true"), Map.of(), "/", 0, 0, List.of(), List.of(),
                List.of(), OptionalLong.empty(), OptionalLong.empty(), false, List.of(), List.of(programs));
        return PlanCheck.decode(PlanEncoder.encode(plan, new byte[32], Instant.EPOCH));
    }

    private static String bpf(String out, int index) {
        return out.replaceAll(".* bpf" + index + "=(\\d+).*", "$1");
    }
}
