package io.aasm.backend.sandlock.internal.capability;

import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.FailurePosture;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.Prerequisite;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.capability.SupportLevel;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Sandlock 0.8.6's per-domain reports on this host: every axis from the CLI contract, every known
 * version-specific gap as a named limitation, and prerequisites only from controlled pairs that ran
 * through the real executable. Landlock and seccomp are inherited and irrevocable, so confinement
 * covers the whole tree even for a descendant that escapes sandlock's process group.
 */
public final class CapabilityCatalog {
    static final String AFTER_EXIT = "sandlock 0.8.6 does not sweep descendants when it exits (upstream #238, #251,"
            + " #252); aasm's guard (a sub-reaper parent of sandlock) kills every remaining process of the tree before"
            + " the launch ends";

    private CapabilityCatalog() {
    }

    public static BackendCapabilities build(ProbeResults probes, Teardown teardown) {
        Map<CapabilityDomain, CapabilityReport> r = new EnumMap<>(CapabilityDomain.class);
        r.put(CapabilityDomain.FILESYSTEM_READ, enforced(CapabilityDomain.FILESYSTEM_READ, probes, ProbeResults.FS_READ,
                "sandlock 0.8.6 --fs-read (Landlock)", List.of(
                        "a write grant also grants read beneath it (sandlock's --fs-write implies read)",
                        "sandlock refuses to start when a granted path does not exist; aasm checks every path first",
                        "descriptors open before the boundary (stdin, stdout, stderr) are not re-checked",
                        AFTER_EXIT)));
        r.put(CapabilityDomain.FILESYSTEM_WRITE, enforced(CapabilityDomain.FILESYSTEM_WRITE, probes,
                ProbeResults.FS_WRITE, "sandlock 0.8.6 --fs-write (Landlock)", List.of(
                        "/dev/null is not writable unless granted; `2>/dev/null` and shell background jobs fail with"
                                + " EACCES",
                        "descriptors open before the boundary (stdin, stdout, stderr) are not re-checked",
                        AFTER_EXIT)));
        r.put(CapabilityDomain.NETWORK_EGRESS, enforced(CapabilityDomain.NETWORK_EGRESS, probes, ProbeResults.EGRESS,
                "sandlock 0.8.6 --net-allow (Landlock TCP + supervisor destination check)", List.of(
                        "host names are resolved once when sandlock starts and pinned; later DNS changes are not"
                                + " followed",
                        "only TCP to a loopback listener is probed on this host; UDP rules are not probed",
                        "port ranges wider than 64 ports and IPv6 prefixes cannot be expressed",
                        "allow and deny rules cannot be combined in 0.8.6 (upstream #75, #135)",
                        AFTER_EXIT)));
        r.put(CapabilityDomain.NAME_RESOLUTION, CapabilityReport.unsupported(CapabilityDomain.NAME_RESOLUTION,
                "sandlock 0.8.6 has no flag that installs a given host table: it pins only the host names of"
                        + " --net-allow rules and does not mediate DNS queries to a resolver the egress rules allow"));
        r.put(CapabilityDomain.SYSCALL, enforced(CapabilityDomain.SYSCALL, probes, ProbeResults.SYSCALL,
                "sandlock 0.8.6 --extra-deny-syscall (seccomp-bpf, EPERM)", List.of(
                        "deny lists only: an allow list cannot be expressed",
                        "sandlock's default blocklist (mount, unshare, setns, ptrace, bpf, io_uring, keyctl, ...)"
                                + " applies to every launch in addition",
                        "a name sandlock does not know makes it refuse to start, before the program runs")));
        r.put(CapabilityDomain.PROCESS_CREATION, enforced(CapabilityDomain.PROCESS_CREATION, probes,
                ProbeResults.PROCESS, "sandlock 0.8.6 --max-processes (supervisor, EAGAIN)", List.of(
                        "counts peak concurrent processes; threads are not counted",
                        "spawn: deny is lowered to --max-processes=1 (the program itself)",
                        AFTER_EXIT)));
        r.put(CapabilityDomain.IPC, enforced(CapabilityDomain.IPC, probes, ProbeResults.IPC,
                "sandlock 0.8.6 scoping (Landlock ABI 6 signal and abstract-socket scopes, seccomp System V block);"
                        + " a granted channel is opened with --disable / --extra-allow-syscall", List.of(
                        "signals and abstract unix sockets are scoped to sandlock's sandbox, System V IPC is blocked"
                                + " as a whole (no per-object scoping)",
                        "pathname unix sockets are governed by sandlock's supervisor through the filesystem grants,"
                                + " not by this domain",
                        "inherited pipes and descriptors are not scoped")));
        r.put(CapabilityDomain.CREDENTIAL, enforced(CapabilityDomain.CREDENTIAL, probes, ProbeResults.CREDENTIAL,
                "sandlock started with only the delegated environment names", List.of(
                        "/proc/<pid>/environ of the program and of sandlock is readable by same-user host processes",
                        "the program can pass its delegated values anywhere its other grants allow")));
        r.put(CapabilityDomain.RESOURCE, resource(probes, teardown, true, true, true));
        return new BackendCapabilities(new Availability.Available(), PlatformBoundary.SHARED_HOST_KERNEL, r,
                Optional.of(probes.measuredAt()));
    }

    static CapabilityReport enforced(CapabilityDomain d, ProbeResults probes, String probe, String mechanism,
                                     List<String> limitations) {
        return new CapabilityReport(d, Mediation.ENFORCE, DecisionTiming.PRE, io.aasm.ports.capability.Synchrony.SYNC,
                FailurePosture.FAIL_CLOSED, DescendantCoverage.PROCESS_TREE, new SupportLevel.Partial(limitations),
                List.of(new Prerequisite("controlled pair " + probe + " through sandlock", probes.status(probe))),
                mechanism);
    }

    /** The resource report, with prerequisites for the ceilings actually stated. */
    static CapabilityReport resource(ProbeResults probes, Teardown teardown, boolean memory, boolean openFiles,
                                     boolean wallClock) {
        List<Prerequisite> pre = new java.util.ArrayList<>();
        if (memory) {
            pre.add(new Prerequisite("controlled pair " + ProbeResults.MEMORY + " through sandlock",
                    probes.status(ProbeResults.MEMORY)));
        }
        if (openFiles) {
            pre.add(new Prerequisite("controlled pair " + ProbeResults.OPEN_FILES + " through sandlock",
                    probes.status(ProbeResults.OPEN_FILES)));
        }
        if (wallClock) {
            pre.add(new Prerequisite("aasm tree teardown at the deadline", teardown.selfCheck()));
        }
        List<String> limits = new java.util.ArrayList<>(List.of(
                "cpu_seconds and file_size ceilings are unsupported by sandlock 0.8.6",
                "memory is sandlock's own accounting: the allocating task is SIGKILLed beyond it, and the launch"
                        + " reports signal 9 (a SIGKILL from elsewhere looks the same)",
                "open files are clamped to what sandlock inherited",
                "the wall clock is held by aasm's guard killing the whole tree at the ceiling, not by the kernel"));
        if (!teardown.wholeTree()) {
            limits.add("no guard on this platform: the tree cannot be torn down as a whole");
        }
        return new CapabilityReport(CapabilityDomain.RESOURCE, Mediation.ENFORCE, DecisionTiming.PRE,
                io.aasm.ports.capability.Synchrony.SYNC, FailurePosture.FAIL_CLOSED,
                wallClock && !teardown.wholeTree() ? DescendantCoverage.TARGET_PROCESS_ONLY
                        : DescendantCoverage.PROCESS_TREE,
                new SupportLevel.Partial(limits), pre,
                "sandlock 0.8.6 --max-memory/--max-open-files/--max-processes + aasm wall clock ("
                        + teardown.describe() + ")");
    }

    /** How the adapter tears the tree down here, and what it observed about that. */
    public interface Teardown {
        /** True when every descendant is caught, however it detaches (a kernel-side group). */
        boolean wholeTree();

        PrerequisiteStatus selfCheck();

        String describe();
    }
}
