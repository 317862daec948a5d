package io.aasm.backend.sandlock.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Property: over thousands of generated specs (every domain, every scope shape, every posture,
 * hostile selectors such as "--no-supervisor" or "-e sh"), the sandlock command line never carries a
 * boundary-weakening flag, every option is --flag=value from the allowed set, the program and its
 * arguments sit after "--", and no delegated value appears anywhere in argv.
 */
class WeakeningFlagPropertyTest {
    private static final List<String> HOSTILE = List.of("--no-supervisor", "--disable=net-tcp", "-e", "--exec-shell",
            "--allow-degraded", "--net-deny=1.2.3.4", "--profile=x", "--user=0:0", "--dry-run", "-r", "--",
            "--env=A=B", "=", ",", "--workdir=/");

    private final Random rnd = new Random(20261129L);
    private final RequirementLowerer lowerer = new RequirementLowerer();

    @Test
    void noGeneratedSpecYieldsAWeakeningOrMalformedOption() {
        int built = 0;
        int inexpressible = 0;
        for (int i = 0; i < 3000; i++) {
            Map<String, String> env = new HashMap<>();
            List<ControlRequirement> reqs = new ArrayList<>();
            for (CapabilityDomain d : CapabilityDomain.values()) {
                if (rnd.nextInt(3) > 0) {
                    reqs.add(new ControlRequirement(d, pick(RequirementIntent.values()),
                            pick(RequirementPosture.values()), pick(DescendantRequirement.values()), scope(d, env)));
                }
            }
            List<String> args = new ArrayList<>();
            for (int a = rnd.nextInt(4); a > 0; a--) {
                args.add(pick(HOSTILE.toArray(new String[0])));
            }
            ExecutionSpec spec = new ExecutionSpec("/bin/prog", args, "/work", IdentityRef.anonymous(), reqs, env,
                    CredentialPosture.none(), new Stdio.Inherit());
            List<DomainLowering.Flags> lowered = new ArrayList<>();
            for (ControlRequirement r : reqs) {
                DomainLowering l = lowerer.lower(r);
                if (l instanceof DomainLowering.Flags f) {
                    lowered.add(f);
                } else {
                    inexpressible++;
                }
            }
            SandlockCommand.Built b = SandlockCommand.build(Path.of("/opt/sandlock"), spec, lowered);
            check(b, spec);
            built++;
        }
        assertEquals(3000, built);
        assertTrue(inexpressible > 0, "the generator must also hit sandlock's gaps");
    }

    private void check(SandlockCommand.Built b, ExecutionSpec spec) {
        List<String> argv = b.argv();
        int sep = argv.indexOf("--");
        assertEquals("run", argv.get(1));
        assertEquals(b.options(), argv.subList(2, sep));
        assertEquals(spec.program(), argv.get(sep + 1));
        assertEquals(spec.args(), argv.subList(sep + 2, argv.size()));
        java.util.Set<CapabilityDomain> stated = new java.util.HashSet<>();
        java.util.Set<IpcChannel> grantedIpc = new java.util.HashSet<>(List.of(IpcChannel.values()));
        for (ControlRequirement r : spec.requirements()) {
            stated.add(r.domain());
            if (r.domain() == CapabilityDomain.IPC) {
                grantedIpc.retainAll(r.scope() instanceof Scope.IpcGrants g ? g.channels() : List.of());
            }
        }
        for (String t : b.options()) {
            String name = SandlockFlags.nameOf(t);
            assertFalse(SandlockFlags.WEAKENING.contains(name), "weakening flag emitted: " + t);
            assertTrue(SandlockFlags.VALUED.contains(name) ? t.startsWith(name + "=") : t.equals("--clean-env"), t);
            // Each opening flag appears only where the policy leaves the domain unstated or grants it.
            switch (t) {
                case "--fs-read=/" -> assertFalse(stated.contains(CapabilityDomain.FILESYSTEM_READ), t);
                case "--fs-write=/" -> assertFalse(stated.contains(CapabilityDomain.FILESYSTEM_READ)
                        || stated.contains(CapabilityDomain.FILESYSTEM_WRITE), t);
                case "--net-allow=*", "--net-allow=icmp://*" ->
                        assertFalse(stated.contains(CapabilityDomain.NETWORK_EGRESS), t);
                case "--disable=signal-scope" -> assertTrue(grantedIpc.contains(IpcChannel.SIGNAL), t);
                case "--disable=abstract-unix-socket-scope" ->
                        assertTrue(grantedIpc.contains(IpcChannel.ABSTRACT_UNIX), t);
                case "--extra-allow-syscall=sysv_ipc" -> assertTrue(grantedIpc.contains(IpcChannel.SYSV), t);
                default -> {
                }
            }
        }
        assertTrue(SandlockFlags.violation(b.options()).isEmpty());
        assertTrue(b.options().contains("--on-error=abort"));
        assertEquals(spec.environment().isEmpty(), b.options().contains("--clean-env"));
        for (String value : spec.environment().values()) {
            assertFalse(argv.stream().anyMatch(t -> t.contains(value)), "delegated value on argv: " + value);
        }
    }

    private Scope scope(CapabilityDomain d, Map<String, String> env) {
        if (rnd.nextInt(6) == 0) {
            return new Scope.WholeDomain();
        }
        return switch (d) {
            case FILESYSTEM_READ, FILESYSTEM_WRITE -> new Scope.Paths(List.of("/" + pick(HOSTILE.toArray(new String[0]))
                    .replace("/", ""), "/usr"));
            case NETWORK_EGRESS -> new Scope.Egress(List.of(new EgressGrant(pick(Protocol.values()),
                    pick(new String[] {"loopback", "10.0.0.0/8", "example.com", "::1", "-evil", "a..b", "*"}),
                    rnd.nextInt(100), 100 + rnd.nextInt(100))));
            case NAME_RESOLUTION -> new Scope.PinnedHosts(new TreeMap<>(Map.of("example.com", "1.2.3.4")));
            case SYSCALL -> new Scope.Syscalls(pick(SyscallMode.values()), List.of(pick(new String[] {"ptrace",
                    "mount", "--no-supervisor"})));
            case PROCESS_CREATION -> new Scope.ProcessCeiling(1 + rnd.nextInt(100));
            case IPC -> new Scope.IpcGrants(new HashSet<>(rnd.nextBoolean() ? List.of() : List.of(
                    pick(IpcChannel.values()))));
            case CREDENTIAL -> {
                List<String> names = new ArrayList<>();
                for (int n = rnd.nextInt(3); n > 0; n--) {
                    String name = "VAR" + rnd.nextInt(1000);
                    names.add(name);
                    env.put(name, "value-" + Long.toHexString(rnd.nextLong()));
                }
                yield new Scope.Delegated(names);
            }
            case RESOURCE -> new Scope.Limits(maybe(1L << 20), rnd.nextInt(4) == 0 ? maybe(30) : OptionalLong.empty(),
                    maybe(60), maybe(256), rnd.nextInt(4) == 0 ? maybe(1024) : OptionalLong.empty(), maybe(64));
        };
    }

    private OptionalLong maybe(long v) {
        return rnd.nextBoolean() ? OptionalLong.of(1 + (long) (rnd.nextDouble() * v)) : OptionalLong.empty();
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[rnd.nextInt(values.length)];
    }
}
