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

    static final String WATCH = "inotify_add_watch fails with EPERM in every launch stating reads (aasm's program"
            + " filter): Landlock does not check watches, so watching is refused, inside the read grants too, rather"
            + " than left to report names and events of folders outside them; fanotify_init fails in every launch";
    static final String METADATA = "Landlock has no right for metadata: in every launch stating writes, aasm's"
            + " guard runs sandlock in a mount namespace of its own where every mount is read-only but the write"
            + " grants, so a metadata change (mode, owner, times, extended attributes) outside them fails with EROFS;"
            + " an unprivileged caller needs the user namespace of the capability drop for it";
    static final String BASELINE = "aasm's program filter, in every launch: calls numbered "
            + io.aasm.backend.sandlock.internal.harden.ProgramFilter.FIRST_UNREVIEWED + " and above (added after"
            + " Linux 6.7, and the x32 ABI) and clone3 fail with ENOSYS; clone with a namespace flag, ioctl"
            + " TIOCSTI/TIOCLINUX and fanotify_init fail with EPERM; another architecture's calls kill the process";
    static final String AUTHORITY = "every capability set (bounding and ambient included) is emptied, the"
            + " securebits locked and no_new_privs set for sandlock and the whole tree by aasm's guard, as root too;"
            + " a caller without CAP_SETPCAP gets a user namespace of its own uid for it; where the least_authority"
            + " probe saw that fail, the drop is left out, no launch is least-authority and this domain cannot"
            + " prevent";
    static final String SESSION = "the program runs in a session of its own (aasm's guard starts sandlock with"
            + " setsid), with a pseudo-terminal of the launch's own relayed when the caller's stdin is a terminal: it"
            + " never shares the caller's session, controlling terminal or job control";

    private CapabilityCatalog() {
    }

    public static BackendCapabilities build(ProbeResults probes, Teardown teardown) {
        Map<CapabilityDomain, CapabilityReport> r = new EnumMap<>(CapabilityDomain.class);
        r.put(CapabilityDomain.FILESYSTEM_READ, enforced(CapabilityDomain.FILESYSTEM_READ, probes, ProbeResults.FS_READ,
                "sandlock 0.8.6 --fs-read (Landlock)", List.of(
                        "a write grant also grants read beneath it (sandlock's --fs-write implies read)",
                        WATCH,
                        "grants are handed to sandlock as the real paths they resolve to; a grant through a symlink is"
                                + " named in the plan and the report with what it resolves to",
                        "sandlock refuses to start when a granted path does not exist; aasm checks every path first",
                        "descriptors open before the boundary (stdin, stdout, stderr) are not re-checked",
                        AFTER_EXIT)));
        r.put(CapabilityDomain.FILESYSTEM_WRITE, enforced(CapabilityDomain.FILESYSTEM_WRITE, probes,
                List.of(ProbeResults.FS_WRITE, ProbeResults.METADATA), "sandlock 0.8.6 --fs-write (Landlock) + aasm's"
                        + " read-only view (metadata)", List.of(
                        METADATA,
                        "a write grant that covers or lies inside aasm's own install, cache, runtime files or JDK is"
                                + " refused (Landlock cannot keep a path beneath a grant read-only); so is a write grant"
                                + " through a symlink root does not own",
                        "/dev/null is always writable (a sink that reads as empty)",
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
        r.put(CapabilityDomain.SYSCALL, enforced(CapabilityDomain.SYSCALL, probes,
                List.of(ProbeResults.SYSCALL, ProbeResults.AUTHORITY), "sandlock 0.8.6 --extra-deny-syscall"
                        + " (seccomp-bpf, EPERM) + aasm's program filter + every capability dropped by aasm's guard",
                List.of(
                        "deny lists only: an allow list cannot be expressed",
                        BASELINE,
                        AUTHORITY,
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
                        "inherited pipes and descriptors are not scoped",
                        SESSION)));
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
        return enforced(d, probes, List.of(probe), mechanism, limitations);
    }

    static CapabilityReport enforced(CapabilityDomain d, ProbeResults probes, List<String> probeNames, String mechanism,
                                     List<String> limitations) {
        return new CapabilityReport(d, Mediation.ENFORCE, DecisionTiming.PRE, io.aasm.ports.capability.Synchrony.SYNC,
                FailurePosture.FAIL_CLOSED, DescendantCoverage.PROCESS_TREE, new SupportLevel.Partial(limitations),
                probeNames.stream().map(p -> new Prerequisite("controlled pair " + p + " through sandlock",
                        probes.status(p))).toList(), mechanism);
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

        /**
         * The teardown as seen by a launch that relies on it (a wall-clock ceiling): its self-check observed in
         * this process, never only remembered from an earlier one.
         */
        default Teardown forLaunch() {
            return this;
        }
    }
}
