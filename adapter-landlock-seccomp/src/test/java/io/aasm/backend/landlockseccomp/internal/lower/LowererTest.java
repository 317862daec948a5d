package io.aasm.backend.landlockseccomp.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.host.Arch;
import io.aasm.backend.landlockseccomp.internal.host.CgroupLayout;
import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.seccomp.FilterCompiler;
import io.aasm.backend.landlockseccomp.internal.seccomp.Libseccomp;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Lowering against simulated hosts (ABI matrix, privilege, cgroup layout); nothing is launched. */
class LowererTest {
    static Optional<FilterCompiler> compiler;

    @BeforeAll
    static void load() {
        Assumptions.assumeTrue(Libseccomp.available(), "environment cannot host this check: libseccomp.so.2 is not installed");
        compiler = Optional.of(new FilterCompiler(Libseccomp.load()));
    }

    static HostFacts host(int abi, int euid, int userns, boolean v2Memory) {
        CgroupLayout cg = v2Memory
                ? new CgroupLayout(Map.of(), Optional.of(Path.of("/sys/fs/cgroup")), java.util.Set.of("memory", "pids"), Map.of("", "/"))
                : new CgroupLayout(Map.of("memory", Path.of("/sys/fs/cgroup/memory"), "pids", Path.of("/sys/fs/cgroup/pids")),
                Optional.of(Path.of("/sys/fs/cgroup/unified")), java.util.Set.of(), Map.of());
        return new HostFacts(Optional.of(Arch.X86_64), "amd64", "6.18", "boot", abi, true, true, euid,
                OptionalInt.of(userns), Optional.empty(), cg);
    }

    static ExecutionSpec spec(Map<String, String> env, ControlRequirement... reqs) {
        return new ExecutionSpec("/bin/true", List.of("a"), "/", IdentityRef.anonymous(), List.of(reqs), env,
                CredentialPosture.none(), new Stdio.Inherit());
    }

    static LandlockSeccompPlan lowered(HostFacts f, ControlRequirement... reqs) {
        Lowering l = new Lowerer(f, compiler).lower(spec(Map.of(), reqs), List.of(reqs));
        return assertInstanceOf(Lowering.Lowered.class, l, l.toString()).plan();
    }

    static Lowering.Refused refused(HostFacts f, ControlRequirement... reqs) {
        return assertInstanceOf(Lowering.Refused.class, new Lowerer(f, compiler).lower(spec(Map.of(), reqs), List.of(reqs)));
    }

    static ControlRequirement req(CapabilityDomain d, Scope s) {
        return ControlRequirement.strict(d, s);
    }

    @Test
    void writeRightsFollowTheAbi() {
        ControlRequirement w = req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp")));
        long at7 = lowered(host(7, 0, 100, false), w).landlock().orElseThrow().handledFs();
        assertTrue((at7 & LandlockRights.TRUNCATE) != 0 && (at7 & LandlockRights.REFER) != 0
                && (at7 & LandlockRights.IOCTL_DEV) != 0);
        assertEquals(0, at7 & LandlockRights.READ_FILE, "write alone does not handle reads");
        long at3 = lowered(host(3, 0, 100, false), w).landlock().orElseThrow().handledFs();
        assertTrue((at3 & LandlockRights.TRUNCATE) != 0);
        assertEquals(0, at3 & LandlockRights.IOCTL_DEV);
        Lowering.Refused r = refused(host(2, 0, 100, false), w);
        assertEquals(CapabilityDomain.FILESYSTEM_WRITE, r.domain());
        assertTrue(r.detail().contains("ABI >= 3"), r.detail());
    }

    @Test
    void aFileGrantCarriesNoDirectoryOnlyRights() {
        LandlockSeccompPlan p = lowered(host(7, 0, 100, false), req(CapabilityDomain.FILESYSTEM_READ,
                new Scope.Paths(List.of("/etc/hostname", "/usr"))), req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of())));
        var rules = p.landlock().orElseThrow().paths();
        // both are read-only binds, so they also carry truncate (ReadOnlyTruncate), a file right
        assertEquals(LandlockRights.EXECUTE | LandlockRights.READ_FILE | LandlockRights.TRUNCATE, rules.get(0).access());
        assertEquals(LandlockRights.READ | LandlockRights.TRUNCATE, rules.get(1).access());
    }

    @Test
    void readGrantsCarryTruncateOnlyWhereTheViewBindsThemReadOnly() {
        ControlRequirement read = req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(List.of("/usr", "/etc")));
        LandlockSeccompPlan p = lowered(host(7, 0, 100, false), read,
                req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp"))));
        var rules = p.landlock().orElseThrow().paths();
        long usr = rules.stream().filter(r -> r.path().equals("/usr")).findFirst().orElseThrow().access();
        assertEquals(LandlockRights.READ | LandlockRights.TRUNCATE, usr);
        // /dev is a tmpfs of the view's own, not a read-only bind: its rule is unchanged
        long dev = rules.stream().filter(r -> r.path().equals("/dev")).findFirst().orElseThrow().access();
        assertEquals(0, dev & LandlockRights.TRUNCATE);
        assertTrue(p.installed().get(CapabilityDomain.FILESYSTEM_READ).stream()
                .anyMatch(s -> s.contains("truncate also beneath the read-only mounts")),
                "the plan says why the read grants carry truncate");
        // reads alone: truncate is not handled, so no rule carries it (and the grants are read-write binds)
        LandlockSeccompPlan readOnly = lowered(host(7, 0, 100, false), read);
        assertEquals(0, readOnly.landlock().orElseThrow().handledFs() & LandlockRights.TRUNCATE);
        assertTrue(readOnly.landlock().orElseThrow().paths().stream()
                .noneMatch(r -> (r.access() & LandlockRights.TRUNCATE) != 0 && r.path().equals("/usr")));
    }

    @Test
    void wholeNetworkUsesANamespaceWhenPossibleElseLandlock() {
        ControlRequirement net = req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain());
        LandlockSeccompPlan root = lowered(host(7, 0, 100, false), net);
        assertTrue(root.namespaces().contains(LandlockSeccompPlan.Namespace.NET));
        assertTrue(root.landlock().isEmpty());
        LandlockSeccompPlan noNs = lowered(host(7, 1000, 0, false), net);
        assertFalse(noNs.namespaces().contains(LandlockSeccompPlan.Namespace.NET));
        assertEquals(LandlockRights.NET_CONNECT_TCP, noNs.landlock().orElseThrow().handledNet());
        assertTrue(noNs.landlock().orElseThrow().ports().isEmpty());
        assertEquals(CapabilityDomain.NETWORK_EGRESS, refused(host(3, 1000, 0, false), net).domain());
    }

    @Test
    void egressGrantsBecomePortRulesAndOtherHostsRefuse() {
        LandlockSeccompPlan p = lowered(host(7, 0, 100, false), req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "0.0.0.0/0", 8000, 8002), new EgressGrant(Protocol.TCP, "::/0", 8000, 8002)))));
        assertEquals(List.of(8000, 8001, 8002), p.landlock().orElseThrow().ports().stream().map(LandlockSeccompPlan.PortRule::port).toList());
        assertFalse(p.namespaces().contains(LandlockSeccompPlan.Namespace.NET), "port grants must reach the host's addresses");
        LandlockSeccompPlan relayed = lowered(host(7, 0, 100, false), req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 8000, 8001)))));
        assertTrue(relayed.namespaces().contains(LandlockSeccompPlan.Namespace.NET), "loopback grants get their own namespace");
        assertEquals(List.of(8000, 8001), relayed.relayTcpPorts());
        assertTrue(relayed.landlock().isEmpty(), "no port rule: nothing else is routable");
        String noNs = refused(host(7, 1000, 0, false), req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 8000, 8000))))).detail();
        assertTrue(noNs.contains("every address"), "without namespaces a loopback grant refuses rather than widen "
                + "to a port rule: " + noNs);
        Lowering.Refused r = refused(host(7, 0, 100, false), req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "10.0.0.0/8", 443, 443)))));
        assertTrue(r.detail().contains("10.0.0.0/8"), r.detail());
        assertTrue(refused(host(7, 0, 100, false), req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 0, 65535))))).detail().contains("at most 64 ports"));
        assertTrue(refused(host(7, 0, 100, false), req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "0.0.0.0/0", 0, 65535), new EgressGrant(Protocol.TCP, "::/0", 0, 65535)))))
                .detail().contains("too wide"));
    }

    @Test
    void pinnedHostsNeedAMountNamespaceAndConflictWithUdpEgress() {
        var pinned = req(CapabilityDomain.NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(Map.of("a.test", "10.1.2.3"))));
        var noEgress = req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain());
        LandlockSeccompPlan p = lowered(host(7, 0, 100, false), pinned, noEgress);
        assertTrue(p.generatedFiles().get("hosts").contains("10.1.2.3\ta.test"));
        assertTrue(p.generatedFiles().get("nsswitch.conf").contains("\nhosts: files\n"), "no DNS at all");
        assertTrue(p.view().orElseThrow().ops().stream().anyMatch(o -> o.b().equals("/etc/nsswitch.conf")));
        assertTrue(p.namespaces().contains(LandlockSeccompPlan.Namespace.MOUNT));
        assertTrue(refused(host(7, 0, 100, false), pinned, req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.UDP, EgressGrant.LOOPBACK, 53, 53))))).detail().contains("UDP"));
        assertTrue(refused(host(7, 0, 100, false), pinned).detail().contains("network egress is not stated"));
        assertTrue(refused(host(7, 0, 100, false), pinned, req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 853, 853))))).detail().contains("TCP port 853"));
    }

    @Test
    void unprivilegedNamespacesGoThroughAUserNamespace() {
        LandlockSeccompPlan p = lowered(host(7, 1000, 100, false), req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())));
        assertTrue(p.namespaces().containsAll(List.of(LandlockSeccompPlan.Namespace.USER, LandlockSeccompPlan.Namespace.PID,
                LandlockSeccompPlan.Namespace.MOUNT)));
        assertTrue(p.mountProc());
        assertFalse(lowered(host(7, 0, 100, false), req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())))
                .namespaces().contains(LandlockSeccompPlan.Namespace.USER));
        assertEquals(CapabilityDomain.CREDENTIAL, refused(host(7, 1000, 0, false),
                req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of()))).domain());
    }

    @Test
    void environmentKeepsExactlyTheDelegatedNames() {
        ControlRequirement cred = req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("PATH")));
        Lowering l = new Lowerer(host(7, 0, 100, false), compiler).lower(spec(Map.of("PATH", "/bin", "TOKEN", "x"), cred),
                List.of(cred));
        assertEquals(Map.of("PATH", "/bin"), ((Lowering.Lowered) l).plan().environment());
    }

    @Test
    void memoryCeilingUsesTheDetectedControllerVersion() {
        ControlRequirement mem = req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.of(1 << 26), OptionalLong.of(5),
                OptionalLong.of(9), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty()));
        HostFacts v1 = host(7, 0, 100, false);
        HostFacts v2 = host(7, 0, 100, true);
        // Lowering does not touch the cgroup tree; the writable check belongs to the prerequisite, so test routes here.
        assertEquals(List.of(Need.CGROUP_MEMORY), ((Route.Supported) new Routes(v1, n -> true).route(mem, List.of(mem))).needs());
        assertTrue(((Route.Supported) new Routes(v2, n -> true).route(mem, List.of(mem))).mechanism().contains("cgroup v2"));
        assertTrue(((Route.Supported) new Routes(v1, n -> true).route(mem, List.of(mem))).mechanism().contains("cgroup v1"));
    }

    @Test
    void unknownSyscallNameIsUnsupportedScope() {
        Route r = new Lowerer(host(7, 0, 100, false), compiler).routes().route(req(CapabilityDomain.SYSCALL,
                new Scope.Syscalls(io.aasm.ports.policy.SyscallMode.DENY, List.of("nope_call"))), List.of());
        assertTrue(assertInstanceOf(Route.Unsupported.class, r).reason().contains("nope_call"));
    }
}
