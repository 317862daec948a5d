package io.aasm.backend.nativ.internal.seccomp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.policy.SyscallMode;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FilterCompilerTest {
    static FilterCompiler compiler;

    @BeforeAll
    static void load() {
        Assumptions.assumeTrue(Libseccomp.available(),
                "environment cannot host this check: libseccomp.so.2 is not installed");
        compiler = new FilterCompiler(Libseccomp.load());
    }

    private static FilterCompiler.Result.Program program(FilterSpec spec) {
        return assertInstanceOf(FilterCompiler.Result.Program.class, compiler.compile(spec));
    }

    @Test
    void everyProgramCompilesToWholeInstructions() {
        for (FilterSpec spec : List.of(SyscallFilters.policyList(SyscallMode.DENY, List.of("ptrace", "mount")),
                SyscallFilters.policyList(SyscallMode.ALLOW, List.of("write")), SyscallFilters.hardening(),
                SyscallFilters.network(false), SyscallFilters.network(true), SyscallFilters.ioUring(),
                SyscallFilters.processDeny())) {
            FilterCompiler.Result.Program p = program(spec);
            assertTrue(p.bytes().length > 0 && p.bytes().length % 8 == 0, spec.purpose());
        }
    }

    @Test
    void argumentFiltersMakeLongerPrograms() {
        assertTrue(program(SyscallFilters.network(false)).instructions()
                > program(SyscallFilters.network(true)).instructions());
    }

    @Test
    void unknownNameIsAClearRejection() {
        FilterCompiler.Result r = compiler.compile(SyscallFilters.policyList(SyscallMode.DENY, List.of("no_such_call")));
        FilterCompiler.Result.Rejected rej = assertInstanceOf(FilterCompiler.Result.Rejected.class, r);
        assertTrue(rej.reason().contains("unknown syscall name 'no_such_call'"), rej.reason());
    }

    @Test
    void resolvesKnownNames() {
        assertTrue(compiler.resolve("openat").isPresent());
        assertTrue(compiler.resolve("definitely_not").isEmpty());
    }

    @Test
    void ruleEqualToDefaultIsSkipped() {
        FilterSpec s = new FilterSpec("t", FilterSpec.ALLOW, List.of(FilterSpec.Rule.of("read", FilterSpec.ALLOW)));
        assertEquals(s, program(s).spec());
    }
}
