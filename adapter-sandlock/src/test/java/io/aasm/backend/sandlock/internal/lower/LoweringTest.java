package io.aasm.backend.sandlock.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Lowering against the documented v0.8.6 contract (flag names, --flag=value form, known gaps). */
class LoweringTest {
    private final RequirementLowerer lowerer = new RequirementLowerer();

    private List<String> flags(CapabilityDomain d, Scope s) {
        return assertInstanceOf(DomainLowering.Flags.class, lowerer.lower(ControlRequirement.strict(d, s))).flags();
    }

    private String inexpressible(CapabilityDomain d, Scope s) {
        return assertInstanceOf(DomainLowering.Inexpressible.class, lowerer.lower(ControlRequirement.strict(d, s)))
                .reason();
    }

    private static Scope.Limits limits(Long mem, Long cpu, Long wall, Long files, Long fsize, Long procs) {
        return new Scope.Limits(opt(mem), opt(cpu), opt(wall), opt(files), opt(fsize), opt(procs));
    }

    private static OptionalLong opt(Long v) {
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    private static ExecutionSpec spec(List<ControlRequirement> reqs, Map<String, String> env, String program,
                                      List<String> args) {
        return new ExecutionSpec(program, args, "/work", IdentityRef.anonymous(), reqs, env, CredentialPosture.none(),
                new Stdio.Inherit());
    }

    @Test
    void filesystemPathsUseFlagEqualsValue() {
        assertEquals(List.of("--fs-read=/usr", "--fs-read=/-rf"),
                flags(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(List.of("/usr", "/-rf"))));
        assertEquals(List.of("--fs-write=/tmp/w", "--fs-write=/dev/null"), flags(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of("/tmp/w"))));
        assertEquals(List.of(), flags(CapabilityDomain.FILESYSTEM_READ, new Scope.WholeDomain()));
    }

    /** As aasm-native's standard devices: /dev/null is a sink every write statement has, deny-all included. */
    @Test
    void writeStatementsAlwaysHaveDevNull() {
        DomainLowering.Flags f = (DomainLowering.Flags) lowerer.lower(ControlRequirement.strict(
                CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp/w"))));
        assertTrue(f.steps().stream().anyMatch(s -> s.startsWith("--fs-write=/dev/null (implicit")), f.steps().toString());
        DomainLowering.Flags granted = (DomainLowering.Flags) lowerer.lower(ControlRequirement.strict(
                CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/dev/null"))));
        assertEquals(List.of("--fs-write=/dev/null"), granted.flags());
        assertEquals(List.of("--fs-write=/dev/null"), flags(CapabilityDomain.FILESYSTEM_WRITE, new Scope.WholeDomain()));
        assertEquals(List.of(), flags(CapabilityDomain.FILESYSTEM_READ, new Scope.WholeDomain()));
    }

    @Test
    void egressGrantsBecomeNetAllowEndpoints() {
        Scope.Egress e = new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "loopback", 8080, 8080),
                new EgressGrant(Protocol.TCP, "10.0.0.0/8", 443, 443),
                new EgressGrant(Protocol.UDP, "example.com", 53, 54),
                new EgressGrant(Protocol.TCP, "2001:db8::1", 0, 65535)));
        assertEquals(List.of("--net-allow=tcp://127.0.0.0/8:8080", "--net-allow=tcp://[::1]:8080",
                "--net-allow=tcp://10.0.0.0/8:443", "--net-allow=udp://example.com:53,54",
                "--net-allow=tcp://[2001:db8::1]:*"), flags(CapabilityDomain.NETWORK_EGRESS, e));
        assertEquals(List.of(), flags(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()));
    }

    @Test
    void egressGapsAreInexpressible() {
        assertTrue(inexpressible(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "10.0.0.1", 8000, 8100)))).contains("port lists, not ranges"));
        assertTrue(inexpressible(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "fd00::/8", 443, 443)))).contains("IPv6 prefixes"));
        assertTrue(inexpressible(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "-x.example", 443, 443)))).contains("is not an IP address"));
    }

    @Test
    void nameResolutionIsNeverExpressible() {
        TreeMap<String, String> hosts = new TreeMap<>(Map.of("example.com", "93.184.216.34"));
        assertTrue(inexpressible(CapabilityDomain.NAME_RESOLUTION, new Scope.PinnedHosts(hosts))
                .contains("no flag that installs a given host table"));
        assertTrue(inexpressible(CapabilityDomain.NAME_RESOLUTION, new Scope.WholeDomain())
                .contains("does not mediate DNS queries"));
    }

    @Test
    void syscallDenyListsOnly() {
        assertEquals(List.of("--extra-deny-syscall=ptrace", "--extra-deny-syscall=mount"),
                flags(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("ptrace", "mount"))));
        assertTrue(inexpressible(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW, List.of("read")))
                .contains("takes only deny lists"));
        assertTrue(inexpressible(CapabilityDomain.SYSCALL, new Scope.WholeDomain()).contains("takes only deny lists"));
        assertTrue(inexpressible(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY,
                List.of("--no-supervisor"))).contains("is not a syscall name"));
    }

    @Test
    void processCeilingAndSpawnDeny() {
        assertEquals(List.of("--max-processes=64"), flags(CapabilityDomain.PROCESS_CREATION,
                new Scope.ProcessCeiling(64)));
        assertEquals(List.of("--max-processes=1"), flags(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain()));
    }

    @Test
    void ipcGrantsOpenExactlyTheirOwnChannel() {
        assertEquals(List.of(), flags(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of())));
        assertEquals(List.of(), flags(CapabilityDomain.IPC, new Scope.WholeDomain()));
        assertEquals(List.of("--extra-allow-syscall=sysv_ipc"), flags(CapabilityDomain.IPC,
                new Scope.IpcGrants(Set.of(IpcChannel.SYSV))));
        assertEquals(List.of("--disable=abstract-unix-socket-scope", "--disable=signal-scope"), flags(
                CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL, IpcChannel.ABSTRACT_UNIX))));
    }

    @Test
    void resourceCeilings() {
        assertEquals(List.of("--max-memory=524288K", "--max-open-files=256", "--max-processes=128"),
                flags(CapabilityDomain.RESOURCE, limits(512L << 20, null, 60L, 256L, null, 128L)),
                "no --timeout: aasm's guard holds the wall clock");
        assertEquals(List.of("--max-memory=1K"), flags(CapabilityDomain.RESOURCE, limits(2047L, null, null, null,
                null, null)), "rounded down, never more than asked");
        assertTrue(inexpressible(CapabilityDomain.RESOURCE, limits(null, 30L, null, null, null, null))
                .contains("cpu_seconds"));
        assertTrue(inexpressible(CapabilityDomain.RESOURCE, limits(null, null, null, null, 10L, null))
                .contains("file_size"));
    }

    @Test
    void scopeOfTheWrongShapeIsRefused() {
        assertTrue(inexpressible(CapabilityDomain.FILESYSTEM_READ, new Scope.ProcessCeiling(3))
                .contains("does not apply"));
    }

    @Test
    void commandLineShapeOnErrorStatusFdAndCleanEnv() {
        List<ControlRequirement> all = new java.util.ArrayList<>();
        all.add(ControlRequirement.strict(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(10)));
        for (CapabilityDomain d : List.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.FILESYSTEM_WRITE,
                CapabilityDomain.NETWORK_EGRESS, CapabilityDomain.NAME_RESOLUTION, CapabilityDomain.SYSCALL,
                CapabilityDomain.IPC, CapabilityDomain.CREDENTIAL, CapabilityDomain.RESOURCE)) {
            all.add(ControlRequirement.strict(d, new Scope.WholeDomain())); // stated, so nothing is opened again
        }
        ExecutionSpec s = spec(all, Map.of(), "/bin/echo", List.of("--no-supervisor", "-r", "/"));
        List<DomainLowering.Flags> lowered = List.of(
                new DomainLowering.Flags(List.of("--max-processes=10"), List.of()),
                new DomainLowering.Flags(List.of("--max-processes=4"), List.of()));
        SandlockCommand.Built b = SandlockCommand.build(Path.of("/opt/sandlock"), s, lowered);
        assertEquals(List.of("/opt/sandlock", "run", "--max-processes=4", "--on-error=abort", "--status-fd=3",
                "--clean-env", "--cwd=/work", "--", "/bin/echo", "--no-supervisor", "-r", "/"), b.argv());
    }

    @Test
    void unstatedDomainsAreOpenedAgainOnTheCommandLine() {
        ExecutionSpec s = spec(List.of(), Map.of(), "/bin/true", List.of());
        List<String> opts = SandlockCommand.build(Path.of("/opt/sandlock"), s, List.of()).options();
        assertEquals(List.of("--fs-read=/", "--fs-write=/", "--net-allow=*", "--net-allow=icmp://*",
                "--disable=signal-scope", "--disable=abstract-unix-socket-scope", "--extra-allow-syscall=sysv_ipc",
                "--max-processes=4294967295", "--on-error=abort", "--status-fd=3", "--clean-env", "--cwd=/work"), opts);
    }

    @Test
    void unstatedWritesOpenOnlyBeneathStatedReads() {
        ExecutionSpec s = spec(List.of(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_READ,
                new Scope.Paths(List.of("/usr", "/work")))), Map.of(), "/bin/true", List.of());
        List<String> opts = SandlockCommand.build(Path.of("/opt/sandlock"), s, List.of(
                (DomainLowering.Flags) lowerer.lower(s.requirements().get(0)))).options();
        assertTrue(opts.containsAll(List.of("--fs-read=/usr", "--fs-read=/work", "--fs-write=/usr", "--fs-write=/work",
                "--fs-write=/dev/null")), opts.toString());
        assertFalse(opts.contains("--fs-read=/") || opts.contains("--fs-write=/"), "never wider than the stated reads");
    }

    @Test
    void aStatedProcessCeilingWinsOverTheUnstatedOne() {
        ExecutionSpec s = spec(List.of(ControlRequirement.strict(CapabilityDomain.RESOURCE, limits(null, null, null,
                null, null, 7L))), Map.of(), "/bin/true", List.of());
        List<String> opts = SandlockCommand.build(Path.of("/opt/sandlock"), s, List.of(
                (DomainLowering.Flags) lowerer.lower(s.requirements().get(0)))).options();
        assertTrue(opts.contains("--max-processes=7"), opts.toString());
        assertFalse(opts.stream().anyMatch(o -> o.startsWith("--max-processes=4294967295")));
    }

    @Test
    void delegatedValuesNeverReachTheCommandLine() {
        String secret = "s3cr3t-value-abc";
        ExecutionSpec s = spec(List.of(ControlRequirement.strict(CapabilityDomain.CREDENTIAL,
                new Scope.Delegated(List.of("API_TOKEN")))), Map.of("API_TOKEN", secret), "/bin/true", List.of());
        SandlockCommand.Built b = SandlockCommand.build(Path.of("/opt/sandlock"), s, List.of(
                (DomainLowering.Flags) lowerer.lower(s.requirements().get(0))));
        assertFalse(b.argv().stream().anyMatch(t -> t.contains(secret) || t.contains("API_TOKEN")), b.argv().toString());
        assertFalse(b.options().contains("--clean-env"), "--clean-env would wipe the delegated names too");
    }

    @Test
    void commandBuilderRefusesAWeakeningFlag() {
        ExecutionSpec s = spec(List.of(), Map.of(), "/bin/true", List.of());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SandlockCommand.build(
                Path.of("/x"), s, List.of(new DomainLowering.Flags(List.of("--no-supervisor"), List.of()))));
        assertTrue(e.getMessage().contains("boundary-weakening flag --no-supervisor"));
        assertThrows(IllegalStateException.class, () -> SandlockCommand.build(Path.of("/x"), s,
                List.of(new DomainLowering.Flags(List.of("-r", "/etc"), List.of()))));
    }

    @Test
    void violationCheckCoversValueSmuggling() {
        assertTrue(SandlockFlags.violation(List.of("--fs-read")).isPresent(), "a valued flag without =value");
        assertTrue(SandlockFlags.violation(List.of("--allow-degraded=net-tcp")).isPresent());
        assertTrue(SandlockFlags.violation(List.of("--clean-env=1")).isPresent());
        assertTrue(SandlockFlags.violation(List.of("--fs-read=/usr", "--clean-env")).isEmpty());
        assertTrue(SandlockFlags.violation(List.of("--disable=net-tcp")).isPresent(), "only the IPC scopes");
        assertTrue(SandlockFlags.violation(List.of("--disable=fs-truncate")).isPresent());
        assertTrue(SandlockFlags.violation(List.of("--status-fd=4")).isPresent());
        assertTrue(SandlockFlags.violation(List.of("--on-error=commit")).isPresent());
        assertTrue(SandlockFlags.violation(List.of("--timeout=5")).isPresent(), "no longer emitted");
        assertTrue(SandlockFlags.violation(List.of("--disable=signal-scope", "--extra-allow-syscall=sysv_ipc"))
                .isEmpty());
        assertTrue(SandlockFlags.violation(List.of("--name=aasm-123-456-7")).isEmpty());
        assertTrue(SandlockFlags.violation(List.of("--name=../x")).isPresent(), "only the names aasm gives");
    }
}
