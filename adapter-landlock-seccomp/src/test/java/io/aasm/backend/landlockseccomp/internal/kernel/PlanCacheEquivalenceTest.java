package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.lower.Lowering;
import io.aasm.backend.landlockseccomp.internal.plan.PlanCache;
import io.aasm.backend.landlockseccomp.internal.runtime.LandlockSeccompBackendPlan;
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
import io.aasm.ports.transport.TransportMediation;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan cache against fresh lowering: for varied policies over a tree of folders, files and symlinks, and for
 * that tree changed between calls (a symlink re-pointed, a folder replaced by a symlink, a symlink's owner changed,
 * a missing path created, a file replaced by a folder), the plan the cache gives equals, field by field and filter
 * byte by byte, the plan made afresh with the cache switched off ({@value PlanCache#PROPERTY}=false). Nothing is
 * launched here; {@link PlanCacheEffectTest} launches.
 */
class PlanCacheEquivalenceTest {
    @TempDir
    Path tmp;
    LandlockSeccompBackend backend;

    @BeforeEach
    void setUp() throws Exception {
        backend = Harness.shared().backend;
        Assumptions.assumeTrue(backend.capabilities().available(), "environment cannot host this check: "
                + "aasm-native is unavailable here");
        Files.createDirectories(tmp.resolve("a"));
        Files.writeString(tmp.resolve("a/file"), "a");
        Files.createDirectories(tmp.resolve("b"));
        Files.createDirectories(tmp.resolve("c"));
        Files.writeString(tmp.resolve("c/file"), "c");
        Files.createDirectories(tmp.resolve("prot"));
        Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("a"));
        Files.createSymbolicLink(tmp.resolve("rel"), Path.of("a"));
        Files.createSymbolicLink(tmp.resolve("chain"), tmp.resolve("link"));
    }

    @AfterEach
    void cacheBackOn() {
        System.clearProperty(PlanCache.PROPERTY);
    }

    private String p(String name) {
        return tmp.resolve(name).toString();
    }

    private static ControlRequirement reads(String... paths) {
        List<String> all = new ArrayList<>(Harness.SYSTEM);
        all.addAll(List.of(paths));
        return req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(all));
    }

    private static ControlRequirement writes(List<String> privateDirs, String... paths) {
        return req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(paths), privateDirs));
    }

    private List<List<ControlRequirement>> policies() {
        ControlRequirement limits = req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.of(1L << 30),
                OptionalLong.of(60), OptionalLong.of(120), OptionalLong.of(256), OptionalLong.empty(), OptionalLong.of(64)));
        return List.of(
                List.of(reads(p("a")), writes(List.of(), p("b"))),
                List.of(reads(p("link"), p("c/file")), writes(List.of("/tmp"), p("b"))),
                List.of(writes(List.of(), p("chain"))),
                List.of(writes(List.of(), p("rel"), p("c"))),
                List.of(reads(p("missing"))),
                List.of(writes(List.of(), p("prot"))),
                List.of(reads(p("a"), p("link")), writes(List.of(), p("b")),
                        req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()),
                        req(CapabilityDomain.NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(Map.of("db", "10.0.0.1")))),
                        req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("ptrace"))),
                        req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(32)),
                        req(CapabilityDomain.IPC, new Scope.WholeDomain()),
                        req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("KEEP"))), limits),
                List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                        new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 8080, 8081)))),
                        req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of()))),
                List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                        new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 5432, 5432),
                        new EgressGrant(Protocol.UDP, EgressGrant.LOOPBACK, 53, 53))))),
                List.of(req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW, List.of("read", "write"))),
                        req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain())),
                List.of(req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL))), limits,
                        reads(p("chain"))),
                List.of(reads(), writes(List.of(p("b")), p("b"), p("rel"))));
    }

    private ExecutionSpec spec(List<ControlRequirement> reqs, String program, String cwd, Map<String, String> env,
                               TransportMediation transport) {
        return new ExecutionSpec(program, List.of("-c", program + " " + env.hashCode()), cwd, IdentityRef.anonymous(),
                reqs, env, CredentialPosture.none(), new Stdio.Inherit(), List.of(p("prot"), p("prot-missing")),
                transport);
    }

    private List<ExecutionSpec> specs() {
        List<ExecutionSpec> out = new ArrayList<>();
        int i = 0;
        for (List<ControlRequirement> reqs : policies()) {
            String cwd = i % 3 == 0 ? "/" : i % 3 == 1 ? tmp.toString() : p("b");
            TransportMediation t = i == 7 ? TransportMediation.mediated(3128, "test") : TransportMediation.notRequested();
            out.add(spec(reqs, "/bin/sh", cwd, Map.of("KEEP", "1", "DROP", "x"), t));
            i++;
        }
        return out;
    }

    /** The cached plan of {@code spec} (asked twice: the second call differs only in what a plan copies). */
    private void assertCachedEqualsFresh(ExecutionSpec spec, String state) {
        backend.plan(spec);
        ExecutionSpec other = new ExecutionSpec("/usr/bin/env", List.of("other", "args"), spec.workingDirectory(),
                spec.identity(), spec.requirements(), Map.of("KEEP", "2", "DROP", "y"), spec.credentials(), spec.stdio(),
                spec.protectedPaths(), spec.transport());
        long hits = backend.plans().hits();
        LandlockSeccompBackendPlan cached = (LandlockSeccompBackendPlan) backend.plan(other);
        assertEquals(hits + 1, backend.plans().hits(), "the same key and filesystem: a hit (" + state + ")");
        System.setProperty(PlanCache.PROPERTY, "false");
        LandlockSeccompBackendPlan fresh = (LandlockSeccompBackendPlan) backend.plan(other);
        System.clearProperty(PlanCache.PROPERTY);
        assertEquals(fresh, cached, state + ": " + spec);
        if (fresh.lowering().orElseThrow() instanceof Lowering.Lowered l) {
            assertEquals("/usr/bin/env", l.plan().program());
            assertEquals(List.of("/usr/bin/env", "other", "args"), l.plan().argv());
        }
    }

    @Test
    void cachedPlanEqualsFreshAcrossPoliciesAndFilesystemStates() throws Exception {
        List<Consumer<Path>> changes = List.of(
                t -> {
                },
                t -> relink(t.resolve("link"), t.resolve("b")),                   // symlink re-pointed
                t -> replaceByLink(t.resolve("a"), t.resolve("c")),               // folder replaced by a symlink
                t -> owner(t.resolve("link"), 65534),                            // symlink's owner changed
                t -> mkdir(t.resolve("missing")),                                 // missing path created
                t -> owner(t.resolve("link"), 0),
                t -> replaceFileByDir(t.resolve("c/file")),                       // file replaced by a folder
                t -> relink(t.resolve("rel"), Path.of("b")));                     // relative symlink re-pointed
        List<ExecutionSpec> specs = specs();
        long staleBefore = backend.plans().stale();
        int compared = 0;
        for (int s = 0; s < changes.size(); s++) {
            changes.get(s).accept(tmp);
            for (ExecutionSpec spec : specs) {
                assertCachedEqualsFresh(spec, "state " + s);
                compared++;
            }
        }
        assertEquals(specs.size() * changes.size(), compared);
        assertTrue(backend.plans().stale() - staleBefore >= changes.size() - 1,
                "every change of the tree made at least one kept plan stale");
    }

    @Test
    void aPlanFromAnOlderFilesystemIsNotServed() throws Exception {
        ExecutionSpec spec = spec(List.of(writes(List.of(), p("link"))), "/bin/sh", "/", Map.of(),
                TransportMediation.notRequested());
        Lowering before = ((LandlockSeccompBackendPlan) backend.plan(spec)).lowering().orElseThrow();
        assertInstanceOf(Lowering.Lowered.class, before);
        owner(tmp.resolve("link"), 65534);
        long stale = backend.plans().stale();
        Lowering after = ((LandlockSeccompBackendPlan) backend.plan(spec)).lowering().orElseThrow();
        assertEquals(stale + 1, backend.plans().stale());
        assertTrue(assertInstanceOf(Lowering.Refused.class, after).detail().contains("owned by uid 65534"), after.toString());
    }

    @Test
    void aBadSwitchValueIsNamed() {
        System.setProperty(PlanCache.PROPERTY, "sometimes");
        ExecutionSpec spec = specs().get(0);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> backend.plan(spec));
        assertTrue(e.getMessage().contains(PlanCache.PROPERTY), e.getMessage());
    }

    static void relink(Path link, Path target) {
        try {
            Path next = link.resolveSibling(link.getFileName() + ".new");
            Files.createSymbolicLink(next, target);
            Files.move(next, link, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void replaceByLink(Path dir, Path target) {
        try {
            Files.move(dir, dir.resolveSibling(dir.getFileName() + ".old"));
            Files.createSymbolicLink(dir, target);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void owner(Path p, int uid) {
        try {
            Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void mkdir(Path p) {
        try {
            Files.createDirectories(p);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void replaceFileByDir(Path p) {
        try {
            Files.delete(p);
            Files.createDirectories(p);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
