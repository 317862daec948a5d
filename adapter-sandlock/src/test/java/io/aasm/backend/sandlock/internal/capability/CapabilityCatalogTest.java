package io.aasm.backend.sandlock.internal.capability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.sandlock.internal.lower.OwnPaths;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Report shape only: probe outcomes are given as values here (what a probe through a real sandlock
 * would record), so these tests check how outcomes become reports, never that sandlock confines.
 */
class CapabilityCatalogTest {
    private static final CapabilityCatalog.Teardown CGROUP = teardown(true);
    private static final CapabilityCatalog.Teardown SCAN = teardown(false);

    private static CapabilityCatalog.Teardown teardown(boolean whole) {
        return new CapabilityCatalog.Teardown() {
            public boolean wholeTree() {
                return whole;
            }

            public PrerequisiteStatus selfCheck() {
                return new PrerequisiteStatus.Satisfied("given");
            }

            public String describe() {
                return whole ? "cgroup" : "scan";
            }
        };
    }

    private static ProbeResults allSatisfied() {
        Map<String, PrerequisiteStatus> m = new java.util.HashMap<>();
        for (String p : io.aasm.backend.sandlock.internal.probe.ProbeRunner.ALL) {
            m.put(p, new PrerequisiteStatus.Satisfied("given"));
        }
        return new ProbeResults(m, Instant.EPOCH);
    }

    @Test
    void everyDomainIsReportedWithNamedLimitations() {
        BackendCapabilities c = CapabilityCatalog.build(allSatisfied(), CGROUP);
        assertEquals(9, c.reports().size());
        assertInstanceOf(SupportLevel.Unsupported.class, c.reportFor(CapabilityDomain.NAME_RESOLUTION).get().support());
        assertTrue(c.reportFor(CapabilityDomain.FILESYSTEM_READ).get().canPrevent());
        assertTrue(c.reportFor(CapabilityDomain.IPC).get().canPrevent(), "the IPC pairs back IPC prevention");
        Map<String, PrerequisiteStatus> noIpc = new java.util.HashMap<>(allSatisfied().outcomes());
        noIpc.remove(ProbeResults.IPC);
        assertFalse(CapabilityCatalog.build(new ProbeResults(noIpc, Instant.EPOCH), CGROUP)
                .reportFor(CapabilityDomain.IPC).get().canPrevent(), "no IPC probe, no IPC prevention");
        SupportLevel.Partial fs = assertInstanceOf(SupportLevel.Partial.class,
                c.reportFor(CapabilityDomain.FILESYSTEM_READ).get().support());
        assertTrue(fs.limitations().stream().anyMatch(l -> l.contains("#251")));
        assertTrue(((SupportLevel.Partial) c.reportFor(CapabilityDomain.FILESYSTEM_WRITE).get().support())
                .limitations().stream().anyMatch(l -> l.contains("/dev/null")));
    }

    @Test
    void noPreventionWithoutAnObservedDenial() {
        ProbeResults none = new ProbeResults(Map.of(), Instant.EPOCH);
        BackendCapabilities c = CapabilityCatalog.build(none, CGROUP);
        for (CapabilityReport r : c.reports().values()) {
            assertFalse(r.canPrevent(), r.domain().token() + " claims prevention without a probe");
        }
    }

    private static ExecutionSpec spec(ControlRequirement... reqs) {
        return new ExecutionSpec("/bin/true", List.of(), "/", IdentityRef.anonymous(), List.of(reqs), Map.of(),
                CredentialPosture.none(), new Stdio.Inherit());
    }

    @Test
    void narrowingMarksInexpressibleScopesUnsupported() {
        BackendCapabilities base = CapabilityCatalog.build(allSatisfied(), CGROUP);
        BackendCapabilities n = Narrowing.narrow(base, spec(
                ControlRequirement.strict(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW,
                        List.of("read"))),
                ControlRequirement.strict(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(),
                        OptionalLong.of(30), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                        OptionalLong.empty()))), new RequirementLowerer(), allSatisfied(), CGROUP, OwnPaths.none());
        assertTrue(((SupportLevel.Unsupported) n.reportFor(CapabilityDomain.SYSCALL).get().support()).reason()
                .contains("takes only deny lists"));
        assertTrue(((SupportLevel.Unsupported) n.reportFor(CapabilityDomain.RESOURCE).get().support()).reason()
                .contains("cpu_seconds"));
        assertTrue(base.reportFor(CapabilityDomain.SYSCALL).get().canPrevent());
    }

    @Test
    void resourcePrerequisitesFollowTheStatedCeilings() {
        Scope.Limits filesOnly = new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.of(64), OptionalLong.empty(), OptionalLong.empty());
        Map<String, PrerequisiteStatus> noMemory = new java.util.HashMap<>(allSatisfied().outcomes());
        noMemory.remove(ProbeResults.MEMORY);
        ProbeResults probes = new ProbeResults(noMemory, Instant.EPOCH);
        BackendCapabilities base = CapabilityCatalog.build(probes, CGROUP);
        assertFalse(base.reportFor(CapabilityDomain.RESOURCE).get().canPrevent(), "memory needs its own pair");
        BackendCapabilities n = Narrowing.narrow(base, spec(ControlRequirement.strict(CapabilityDomain.RESOURCE,
                filesOnly)), new RequirementLowerer(), probes, CGROUP, OwnPaths.none());
        assertTrue(n.reportFor(CapabilityDomain.RESOURCE).get().canPrevent());
    }

    @Test
    void wallClockCoverageDependsOnTeardown() {
        Scope.Limits wall = new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.of(5),
                OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
        ExecutionSpec s = spec(ControlRequirement.strict(CapabilityDomain.RESOURCE, wall));
        assertEquals(DescendantCoverage.PROCESS_TREE, Narrowing.narrow(CapabilityCatalog.build(allSatisfied(), CGROUP),
                s, new RequirementLowerer(), allSatisfied(), CGROUP, OwnPaths.none()).reportFor(CapabilityDomain.RESOURCE).get()
                .descendants());
        CapabilityReport scan = Narrowing.narrow(CapabilityCatalog.build(allSatisfied(), SCAN), s,
                new RequirementLowerer(), allSatisfied(), SCAN, OwnPaths.none()).reportFor(CapabilityDomain.RESOURCE).get();
        assertEquals(DescendantCoverage.TARGET_PROCESS_ONLY, scan.descendants());
        assertTrue(((SupportLevel.Partial) scan.support()).limitations().stream()
                .anyMatch(l -> l.contains("no guard")));
    }

    /** A wall clock relies on the teardown: its prerequisite is the check made for the launch, not a remembered one. */
    @Test
    void aWallClockTakesTheTeardownCheckMadeForTheLaunch() {
        CapabilityCatalog.Teardown remembered = new CapabilityCatalog.Teardown() {
            public boolean wholeTree() {
                return true;
            }

            public PrerequisiteStatus selfCheck() {
                return new PrerequisiteStatus.Satisfied("remembered");
            }

            public String describe() {
                return "cgroup";
            }

            public CapabilityCatalog.Teardown forLaunch() {
                return CGROUP;
            }
        };
        Scope.Limits wall = new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.of(5),
                OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
        Scope.Limits memory = new Scope.Limits(OptionalLong.of(1 << 26), OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
        BackendCapabilities base = CapabilityCatalog.build(allSatisfied(), remembered);
        CapabilityReport withWall = Narrowing.narrow(base, spec(ControlRequirement.strict(CapabilityDomain.RESOURCE,
                wall)), new RequirementLowerer(), allSatisfied(), remembered, OwnPaths.none())
                .reportFor(CapabilityDomain.RESOURCE).get();
        assertTrue(withWall.prerequisites().stream().anyMatch(p -> p.status().equals(
                new PrerequisiteStatus.Satisfied("given"))), withWall.prerequisites().toString());
        assertTrue(withWall.prerequisites().stream().noneMatch(p -> p.status().equals(
                new PrerequisiteStatus.Satisfied("remembered"))));
        CapabilityReport noWall = Narrowing.narrow(base, spec(ControlRequirement.strict(CapabilityDomain.RESOURCE,
                memory)), new RequirementLowerer(), allSatisfied(), remembered, OwnPaths.none())
                .reportFor(CapabilityDomain.RESOURCE).get();
        assertTrue(noWall.prerequisites().stream().noneMatch(p -> p.requirement().contains("teardown")),
                "control: without a wall clock the teardown is no prerequisite: " + noWall.prerequisites());
        assertTrue(base.reportFor(CapabilityDomain.RESOURCE).get().prerequisites().stream().anyMatch(p -> p.status()
                .equals(new PrerequisiteStatus.Satisfied("remembered"))), "the catalog itself shows the remembered one");
    }

    @Test
    void unstatedDomainsSayWhatSandlockWasToldAndWhatItStillRestricts() {
        BackendCapabilities n = Narrowing.narrow(CapabilityCatalog.build(allSatisfied(), CGROUP), spec(
                ControlRequirement.strict(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(List.of("/usr")))),
                new RequirementLowerer(), allSatisfied(), CGROUP, OwnPaths.none());
        CapabilityReport write = n.reportFor(CapabilityDomain.FILESYSTEM_WRITE).get();
        assertTrue(write.mechanism().startsWith("not stated; sandlock was told: --fs-write=/usr --fs-write=/dev/null"),
                write.mechanism());
        assertTrue(((SupportLevel.Partial) write.support()).limitations().get(0)
                .contains("denies writes outside the read grants"));
        assertTrue(n.reportFor(CapabilityDomain.NETWORK_EGRESS).get().mechanism().contains("--net-allow=*"));
        assertTrue(n.reportFor(CapabilityDomain.IPC).get().mechanism().contains("--disable=signal-scope"));
        assertInstanceOf(SupportLevel.Full.class, n.reportFor(CapabilityDomain.IPC).get().support(),
                "nothing of IPC stays restricted when it is not stated");
        assertTrue(((SupportLevel.Partial) n.reportFor(CapabilityDomain.NAME_RESOLUTION).get().support())
                .limitations().get(0).contains("synthetic /etc/hosts"));
        assertTrue(((SupportLevel.Partial) n.reportFor(CapabilityDomain.SYSCALL).get().support()).limitations()
                .get(0).contains("default syscall blocklist"));
        assertEquals(n.reportFor(CapabilityDomain.FILESYSTEM_READ), CapabilityCatalog.build(allSatisfied(), CGROUP)
                .reportFor(CapabilityDomain.FILESYSTEM_READ), "a stated domain keeps its report");
    }

    private static ProbeResults without(String probe) {
        Map<String, PrerequisiteStatus> m = new java.util.HashMap<>(allSatisfied().outcomes());
        m.put(probe, new PrerequisiteStatus.Unsatisfied("not observed"));
        return new ProbeResults(m, Instant.EPOCH);
    }

    private static List<String> limits(BackendCapabilities c, CapabilityDomain d) {
        return ((SupportLevel.Partial) c.reportFor(d).get().support()).limitations();
    }

    /** Privileged interfaces are the syscall row's: it prevents only where the guard's drop was observed. */
    @Test
    void syscallPreventionRestsOnTheObservedAuthorityDrop() {
        BackendCapabilities c = CapabilityCatalog.build(allSatisfied(), CGROUP);
        assertTrue(c.reportFor(CapabilityDomain.SYSCALL).get().canPrevent());
        assertTrue(limits(c, CapabilityDomain.SYSCALL).stream().anyMatch(l -> l.contains("clone3 fail with ENOSYS")
                && l.contains("457")), limits(c, CapabilityDomain.SYSCALL).toString());
        assertTrue(limits(c, CapabilityDomain.SYSCALL).stream().anyMatch(l -> l.contains("every capability set")));
        assertFalse(CapabilityCatalog.build(without(ProbeResults.AUTHORITY), CGROUP)
                .reportFor(CapabilityDomain.SYSCALL).get().canPrevent(), "no observed drop, no syscall prevention");
    }

    /** Landlock does not see metadata: write prevention rests on the guard's read-only view, observed. */
    @Test
    void writePreventionRestsOnTheObservedMetadataSeal() {
        BackendCapabilities c = CapabilityCatalog.build(allSatisfied(), CGROUP);
        assertTrue(limits(c, CapabilityDomain.FILESYSTEM_WRITE).stream().anyMatch(l -> l.contains("metadata change")
                && l.contains("read-only but the write grants")), limits(c, CapabilityDomain.FILESYSTEM_WRITE).toString());
        assertFalse(CapabilityCatalog.build(without(ProbeResults.METADATA), CGROUP)
                .reportFor(CapabilityDomain.FILESYSTEM_WRITE).get().canPrevent());
        assertTrue(limits(c, CapabilityDomain.FILESYSTEM_READ).stream().anyMatch(l -> l.contains("inotify_add_watch")));
        assertTrue(limits(c, CapabilityDomain.IPC).stream().anyMatch(l -> l.contains("session of its own")));
    }

    @Test
    void aWriteGrantOverAasmsOwnStateIsUnsupportedForThatLaunch(@org.junit.jupiter.api.io.TempDir java.nio.file.Path t)
            throws java.io.IOException {
        java.nio.file.Path cache = java.nio.file.Files.createDirectories(t.resolve("cache/aasm"));
        OwnPaths own = OwnPaths.of(List.of(), List.of(cache.toString()));
        BackendCapabilities base = CapabilityCatalog.build(allSatisfied(), CGROUP);
        BackendCapabilities n = Narrowing.narrow(base, spec(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of(t.resolve("cache").toString())))), new RequirementLowerer(), allSatisfied(),
                CGROUP, own);
        String why = ((SupportLevel.Unsupported) n.reportFor(CapabilityDomain.FILESYSTEM_WRITE).get().support()).reason();
        assertTrue(why.contains("covers aasm's own state"), why);
        assertTrue(Narrowing.narrow(base, spec(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of(t.toString() + "/elsewhere")))), new RequirementLowerer(), allSatisfied(), CGROUP,
                own).reportFor(CapabilityDomain.FILESYSTEM_WRITE).get().canPrevent(), "control: a grant beside it");
    }
}
