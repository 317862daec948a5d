package io.aasm.policy.yaml.internal;

import static io.aasm.ports.capability.CapabilityDomain.CREDENTIAL;
import static io.aasm.ports.capability.CapabilityDomain.FILESYSTEM_READ;
import static io.aasm.ports.capability.CapabilityDomain.FILESYSTEM_WRITE;
import static io.aasm.ports.capability.CapabilityDomain.IPC;
import static io.aasm.ports.capability.CapabilityDomain.NAME_RESOLUTION;
import static io.aasm.ports.capability.CapabilityDomain.NETWORK_EGRESS;
import static io.aasm.ports.capability.CapabilityDomain.PROCESS_CREATION;
import static io.aasm.ports.capability.CapabilityDomain.RESOURCE;
import static io.aasm.ports.capability.CapabilityDomain.SYSCALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.policy.PolicyStatement;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SourceLocation;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Valid policies lower to exactly the expected statements: scopes, postures, intents and locations. */
class ValidPolicyTest {
    private static final RequirementIntent PREVENT = RequirementIntent.PREVENT_BEFORE_EFFECT;
    private static final RequirementPosture REQUIRED = RequirementPosture.REQUIRED;
    private final YamlPolicySource source = new YamlPolicySource();

    private static Policy load(String name) {
        Path file = TestFiles.resource("valid/" + name);
        PolicyLoad load = new YamlPolicySource().load(file);
        if (load instanceof PolicyLoad.Rejected r) {
            throw new AssertionError(name + " was rejected:\n"
                    + r.problems().stream().map(PolicyProblem::render).collect(Collectors.joining("\n")));
        }
        Policy policy = ((PolicyLoad.Loaded) load).policy();
        assertEquals(file.toString(), policy.origin());
        assertEquals(List.of(), policy.unmapped(), "every YAML key maps to a domain");
        return policy;
    }

    /** Expected statements are built in the file's own terms; the location is the section key. */
    private static final class Expect {
        final String file;
        final Map<CapabilityDomain, PolicyStatement> statements = new EnumMap<>(CapabilityDomain.class);

        Expect(String name) {
            this.file = TestFiles.resource("valid/" + name).toString();
        }

        Expect put(CapabilityDomain d, Scope s, int line, int column) {
            return put(d, s, PREVENT, REQUIRED, line, column);
        }

        Expect put(CapabilityDomain d, Scope s, RequirementIntent i, RequirementPosture p, int line, int column) {
            statements.put(d, new PolicyStatement(d, s, i, p, DescendantRequirement.PROCESS_TREE,
                    new SourceLocation(file, line, column)));
            return this;
        }

        void check(Policy actual) {
            for (CapabilityDomain d : CapabilityDomain.values()) {
                assertEquals(statements.get(d), actual.statements().get(d), d.token());
            }
        }
    }

    private static Scope.Limits limits(Long memory, Long cpu, Long wall, Long files, Long fileSize, Long processes) {
        return new Scope.Limits(opt(memory), opt(cpu), opt(wall), opt(files), opt(fileSize), opt(processes));
    }

    private static OptionalLong opt(Long v) {
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    @Test
    void completePolicyLowersEveryDomain() {
        Policy p = load("complete.yaml");
        assertEquals(Optional.of(IsolationClass.AUTO), p.isolation());
        TreeMap<String, String> hosts = new TreeMap<>(Map.of("example.com", "93.184.216.34",
                "mirror.example.org", "2001:db8::1"));
        new Expect("complete.yaml")
                .put(FILESYSTEM_READ, new Scope.Paths(List.of("/etc/ssl", "/usr")), 9, 3)
                .put(FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp/work")), PREVENT, RequirementPosture.DEGRADE, 12, 3)
                .put(NETWORK_EGRESS, new Scope.Egress(List.of(
                        new EgressGrant(Protocol.TCP, "loopback", 0, 65535),
                        new EgressGrant(Protocol.TCP, "loopback", 8080, 8080),
                        new EgressGrant(Protocol.TCP, "10.0.0.0/8", 443, 443),
                        new EgressGrant(Protocol.TCP, "example.com", 443, 443),
                        new EgressGrant(Protocol.UDP, "2001:db8::/32", 8000, 8100))),
                        PREVENT, RequirementPosture.OPTIONAL, 17, 3)
                .put(NAME_RESOLUTION, new Scope.PinnedHosts(hosts), RequirementIntent.OBSERVE, REQUIRED, 25, 3)
                .put(SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mount", "ptrace")), 28, 1)
                .put(PROCESS_CREATION, new Scope.ProcessCeiling(64), 29, 1)
                .put(IPC, new Scope.IpcGrants(EnumSet.allOf(IpcChannel.class)), 30, 1)
                .put(CREDENTIAL, new Scope.Delegated(List.of("HOME", "LANG", "PATH")), 31, 1)
                .put(RESOURCE, limits(512L << 20, 30L, 60L, 256L, 10L << 20, 128L), 32, 1)
                .check(p);
    }

    @Test
    void absentSectionsStateNothing() {
        Policy p = load("minimal.yaml");
        assertEquals(Optional.empty(), p.isolation());
        assertEquals(Map.of(), p.statements());
    }

    @Test
    void everyPresentEmptyGrantListDeniesItsWholeDomain() {
        Policy p = load("deny-all.yaml");
        assertEquals(Optional.of(IsolationClass.PROCESS), p.isolation());
        Scope none = new Scope.WholeDomain();
        new Expect("deny-all.yaml")
                .put(FILESYSTEM_READ, none, 6, 3)
                .put(FILESYSTEM_WRITE, none, 7, 3)
                .put(NETWORK_EGRESS, none, 9, 3)
                .put(NAME_RESOLUTION, none, 10, 3)
                .put(SYSCALL, none, 11, 1)
                .put(PROCESS_CREATION, none, 12, 1)
                .put(IPC, none, 13, 1)
                .put(CREDENTIAL, none, 14, 1)
                .put(RESOURCE, limits(null, null, null, null, null, 1L), 15, 1)
                .check(p);
    }

    @Test
    void entriesAreNormalisedAndCollapsed() {
        Policy p = load("normalisation.yaml");
        new Expect("normalisation.yaml")
                .put(FILESYSTEM_READ, new Scope.Paths(List.of("/etc/ssl", "/srv/data", "/usr", "/workspace",
                        "/workspace-other")), 4, 3)
                .put(FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp/a")), 14, 3)
                .put(NETWORK_EGRESS, new Scope.Egress(List.of(
                        new EgressGrant(Protocol.TCP, "loopback", 0, 65535),
                        new EgressGrant(Protocol.TCP, "example.com", 443, 443))), 17, 3)
                .put(NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(Map.of("mirror.example.org", "10.1.2.3"))), 19, 3)
                .put(SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW, List.of("exit_group", "read", "write")), 21, 1)
                .put(CREDENTIAL, new Scope.Delegated(List.of("LANG", "PATH")), 23, 1)
                .put(IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL)), 25, 1)
                .put(RESOURCE, limits(4096L, null, null, 1024L, 1024L, null), 27, 1)
                .check(p);
    }

    @Test
    void sizeUnitsAreBinaryAndPostureApplies() {
        new Expect("sizes.yaml")
                .put(RESOURCE, limits(2L << 30, null, null, null, 3L << 20, null), PREVENT, RequirementPosture.OPTIONAL, 3, 1)
                .check(load("sizes.yaml"));
    }

    @Test
    void rootGrantAndExplicitDocumentStart() {
        Policy p = load("root-only.yaml");
        assertEquals(Optional.of(IsolationClass.NONE), p.isolation());
        new Expect("root-only.yaml")
                .put(FILESYSTEM_READ, new Scope.Paths(List.of("/")), 7, 3)
                .put(FILESYSTEM_WRITE, new Scope.WholeDomain(), 8, 3)
                .check(p);
    }

    @Test
    void theWorkingDirectoryIsGrantedByNameAndPrivateFoldersAreWriteOnly() {
        new Expect("workdir.yaml")
                .put(FILESYSTEM_READ, new Scope.Paths(List.of("$WORKDIR/docs", "/usr")), 4, 3)
                .put(FILESYSTEM_WRITE, new Scope.Paths(List.of("$WORKDIR"), List.of("/tmp", "/var/tmp")), 6, 3)
                .check(load("workdir.yaml"));
    }

    @Test
    void utf8ByteOrderMarkIsIgnored() {
        new Expect("bom.yaml").put(PROCESS_CREATION, new Scope.ProcessCeiling(1), 3, 1).check(load("bom.yaml"));
    }

    @Test
    void everySectionCarriesItsOwnPostureAndIntent() {
        RequirementIntent observe = RequirementIntent.OBSERVE;
        RequirementPosture optional = RequirementPosture.OPTIONAL;
        RequirementPosture degrade = RequirementPosture.DEGRADE;
        new Expect("headers.yaml")
                .put(FILESYSTEM_READ, new Scope.Paths(List.of("/usr")), observe, optional, 5, 3)
                .put(FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp")), PREVENT, degrade, 6, 3)
                .put(NETWORK_EGRESS, new Scope.Egress(List.of(new EgressGrant(Protocol.TCP, "loopback", 0, 65535))),
                        observe, REQUIRED, 8, 3)
                .put(NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(Map.of("localhost", "127.0.0.1"))),
                        PREVENT, optional, 9, 3)
                .put(SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW, List.of("read", "write")), observe, degrade, 10, 1)
                .put(PROCESS_CREATION, new Scope.WholeDomain(), observe, optional, 11, 1)
                .put(IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL)), observe, degrade, 12, 1)
                .put(CREDENTIAL, new Scope.Delegated(List.of("HOME")), observe, optional, 13, 1)
                .put(RESOURCE, limits(null, 5L, null, null, null, null), observe, degrade, 14, 1)
                .check(load("headers.yaml"));
    }

    @Test
    void textEntryPointUsesTheGivenOrigin() {
        PolicyLoad load = source.parse("inline", "apiVersion: aasm/v1\nkind: Policy\nipc: {allow: [sysv]}\n");
        Policy p = assertInstanceOf(PolicyLoad.Loaded.class, load).policy();
        assertEquals("inline", p.origin());
        assertEquals(new SourceLocation("inline", 3, 1), p.statement(IPC).orElseThrow().where());
        assertTrue(p.statement(SYSCALL).isEmpty());
    }
}
