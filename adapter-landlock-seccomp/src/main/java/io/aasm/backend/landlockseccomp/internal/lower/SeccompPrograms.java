package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.seccomp.BaselineFilter;
import io.aasm.backend.landlockseccomp.internal.seccomp.FilterCompiler;
import io.aasm.backend.landlockseccomp.internal.seccomp.SyscallFilters;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Compiles the seccomp programs of a launch: the libseccomp program of its concerns (cached, since the
 * same policy lowers to the same concerns launch after launch) and the hand-assembled fail-closed
 * baseline, built once per host. Every launch gets both: there is no confined launch without a filter.
 */
final class SeccompPrograms {
    private final HostFacts facts;
    private final Optional<FilterCompiler> compiler;
    private final Map<SyscallFilters.Concerns, FilterCompiler.Result> cache = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<SyscallFilters.Concerns, FilterCompiler.Result> e) {
                    return size() > 64;
                }
            });
    private volatile LandlockSeccompPlan.SeccompProgram baseline;

    SeccompPrograms(HostFacts facts, Optional<FilterCompiler> compiler) {
        this.facts = facts;
        this.compiler = compiler;
    }

    /** Adds both programs to the plan, or says why it cannot. */
    Optional<String> install(SyscallFilters.Concerns c, LandlockSeccompPlan.Builder b) {
        if (compiler.isEmpty() || !facts.seccompFilter() || facts.arch().isEmpty()) {
            return Optional.of("seccomp is not available on this host (every confined launch installs the "
                    + "hardening baseline)");
        }
        FilterCompiler.Result res = cache.computeIfAbsent(c, k -> compiler.get().compile(SyscallFilters.build(k,
                n -> compiler.get().resolve(n).isPresent())));
        if (res instanceof FilterCompiler.Result.Rejected rej) {
            return Optional.of(rej.reason());
        }
        FilterCompiler.Result.Program p = (FilterCompiler.Result.Program) res;
        // The baseline first: an allow-list program may not allow seccomp(2) itself, needed to install a second.
        b.seccomp.add(baseline());
        b.seccomp.add(new LandlockSeccompPlan.SeccompProgram(p.spec().purpose(), p.bytes()));
        return Optional.empty();
    }

    private LandlockSeccompPlan.SeccompProgram baseline() {
        LandlockSeccompPlan.SeccompProgram p = baseline;
        if (p == null) {
            int first = compiler.get().firstUnknownNumber();
            p = new LandlockSeccompPlan.SeccompProgram("fail-closed baseline: syscall numbers from " + first
                    + " up (unknown to this filter) fail with ENOSYS; clone with namespace flags EPERM, clone3 ENOSYS;"
                    + " ioctl TIOCSTI/TIOCLINUX EPERM", BaselineFilter.build(facts.arch().get(), first));
            baseline = p;
        }
        return p;
    }
}
