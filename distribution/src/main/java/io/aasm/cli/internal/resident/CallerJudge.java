package io.aasm.cli.internal.resident;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides from what the kernel observes in {@code /proc} (never from what a client says) whether a
 * caller runs inside a boundary the resident kernel is not in. Each signal is one a boundary cannot
 * shed: no_new_privs and seccomp filters are inherited and irrevocable, namespaces are left only with
 * privileges the boundary removes, the launch's cgroup and its launcher ancestor are where the backend
 * put it. Any one of them is enough; a fact that cannot be read counts as confined (fail closed).
 *
 * <p>Every comparison is against the kernel's own values, so a kernel that itself runs inside some
 * boundary still serves callers that share exactly that boundary, and nothing wider. The kernel's own
 * {@code status} fields and namespaces are read once, when the judge is made (they were read again for every
 * connection, 12 of its {@code /proc} reads): the status fields only ever grow (no_new_privs cannot be
 * cleared, a seccomp filter cannot be removed), so a kept value can only be lower than the live one, which
 * judges more callers confined, never fewer; and the kernel's JVM never changes its own namespaces. Its
 * cgroups (an operator may move it) and its ancestry (a parent may exit) are read per connection as before.
 */
final class CallerJudge {
    /** Process names of the launchers the backends run (the aasm-native launcher and its init keep it). */
    static final Set<String> LAUNCHER_NAMES = Set.of("aasm-launch", "sandlock");
    private static final int MAX_DEPTH = 4096;

    private static final List<String> STATUS_FIELDS = List.of("NoNewPrivs", "Seccomp", "Seccomp_filters");

    private final Path procRoot;
    private final long kernelPid;
    private final ProcFacts self;
    private final Map<String, Long> ownStatus;
    private final Map<String, String> ownNamespaces;

    CallerJudge(Path procRoot, long kernelPid) {
        this.procRoot = procRoot;
        this.kernelPid = kernelPid;
        this.self = new ProcFacts(procRoot, kernelPid);
        this.ownStatus = self.statusFields(STATUS_FIELDS).orElse(Map.of());
        this.ownNamespaces = self.namespaces();
    }

    CallerVerdict judge(long pid) {
        List<String> why = new ArrayList<>();
        if (pid <= 0) {
            why.add("its process is not visible in the kernel's pid namespace (SO_PEERCRED pid " + pid + ")");
            return new CallerVerdict(pid, why);
        }
        ProcFacts peer = new ProcFacts(procRoot, pid);
        compareStatus(peer, why);
        compareNamespaces(peer, why);
        compareCgroups(peer, why);
        launcherAncestor(pid).ifPresent(why::add);
        return new CallerVerdict(pid, why);
    }

    private void compareStatus(ProcFacts peer, List<String> why) {
        Optional<Map<String, Long>> status = peer.statusFields(STATUS_FIELDS);
        Long nnp = status.map(f -> f.get("NoNewPrivs")).orElse(null);
        if (nnp == null) {
            why.add("its /proc status cannot be read");
            return;
        }
        long ownNnp = ownStatus.getOrDefault("NoNewPrivs", 0L);
        if (nnp == 1 && ownNnp == 0) {
            why.add("no_new_privs is set (the kernel's is not)");
        }
        for (String field : List.of("Seccomp", "Seccomp_filters")) {
            Long own = ownStatus.get(field);
            if (own == null) {
                continue; // a kernel release without this field: nothing to compare
            }
            Long theirs = status.get().get(field);
            if (theirs == null) {
                why.add(field + " cannot be read");
            } else if (theirs > own) {
                why.add(field + " " + theirs + " (the kernel's: " + own + ")");
            }
        }
    }

    private void compareNamespaces(ProcFacts peer, List<String> why) {
        Map<String, String> theirs = peer.namespaces();
        for (Map.Entry<String, String> own : ownNamespaces.entrySet()) {
            String t = theirs.get(own.getKey());
            if (t == null) {
                why.add("its " + own.getKey() + " namespace cannot be read");
            } else if (!t.equals(own.getValue())) {
                why.add("its own " + own.getKey() + " namespace (" + t + ", the kernel's: " + own.getValue() + ")");
            }
        }
    }

    private void compareCgroups(ProcFacts peer, List<String> why) {
        Optional<Set<String>> theirs = peer.aasmCgroups();
        if (theirs.isEmpty()) {
            why.add("its cgroups cannot be read");
            return;
        }
        Set<String> extra = new HashSet<>(theirs.get());
        extra.removeAll(self.aasmCgroups().orElse(Set.of()));
        if (!extra.isEmpty()) {
            why.add("it runs in the aasm launch group " + String.join(", ", new java.util.TreeSet<>(extra)));
        }
    }

    /**
     * The first process named like a launcher on the caller's parent chain, stopping at the kernel's own
     * chain (the kernel and its ancestors are not the caller's boundary) and at pid 1.
     */
    private Optional<String> launcherAncestor(long pid) {
        Set<Long> kernelChain = chain(kernelPid);
        Optional<ProcFacts.Stat> st = new ProcFacts(procRoot, pid).stat();
        if (st.isEmpty()) {
            return Optional.of("its /proc stat cannot be read");
        }
        long p = st.get().ppid();
        for (int i = 0; i < MAX_DEPTH && p > 1 && !kernelChain.contains(p); i++) {
            Optional<ProcFacts.Stat> a = new ProcFacts(procRoot, p).stat();
            if (a.isEmpty()) {
                return Optional.of("its ancestor pid " + p + " cannot be read");
            }
            if (LAUNCHER_NAMES.contains(a.get().comm())) {
                return Optional.of("its ancestor pid " + p + " is " + a.get().comm());
            }
            p = a.get().ppid();
        }
        return Optional.empty();
    }

    private Set<Long> chain(long start) {
        Set<Long> seen = new HashSet<>();
        long p = start;
        for (int i = 0; i < MAX_DEPTH && p > 0 && seen.add(p); i++) {
            p = new ProcFacts(procRoot, p).stat().map(ProcFacts.Stat::ppid).orElse(0L);
        }
        return seen;
    }
}
