package io.aasm.backend.vm.internal.lower;

import io.aasm.backend.vm.internal.guest.CanaryTargets;
import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.guest.ViewOp;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Lowers one launch's requirements to a {@link VmLaunch}: the filesystem to shares and a view
 * ({@link ShareLayout}), name resolution to generated files, the syscall and process domains to seccomp
 * programs, resources to the guest's cgroup and rlimits (the wall clock stays on the host). Every launch gets
 * the seccomp hardening baseline and runs without capabilities, whatever is stated.
 */
public final class VmLowerer {
    /** Linux rlimit numbers (the guest's). */
    static final int RLIMIT_CPU = 0, RLIMIT_FSIZE = 1, RLIMIT_NOFILE = 7;

    private final SeccompPrograms seccomp;
    private final int slots;
    private final List<String> ownState;

    /** {@code ownState}: this backend's own folders, protected like aasm's (added to every spec's). */
    public VmLowerer(int slots, List<String> ownState) {
        this.seccomp = new SeccompPrograms();
        this.slots = slots;
        this.ownState = List.copyOf(ownState);
    }

    public VmLowering lower(ExecutionSpec spec, List<ControlRequirement> reqs, int uid, int gid) {
        Map<CapabilityDomain, Scope> scopes = new EnumMap<>(CapabilityDomain.class);
        reqs.forEach(r -> scopes.putIfAbsent(r.domain(), r.scope()));
        Map<CapabilityDomain, List<String>> steps = new EnumMap<>(CapabilityDomain.class);
        List<String> protectedPaths = new ArrayList<>(spec.protectedPaths());
        protectedPaths.addAll(ownState);
        Scope.Paths write = paths(scopes.get(CapabilityDomain.FILESYSTEM_WRITE));
        Object laid = ShareLayout.layout(Optional.ofNullable(paths(scopes.get(CapabilityDomain.FILESYSTEM_READ)))
                .map(Scope.Paths::paths), Optional.ofNullable(write).map(Scope.Paths::paths),
                write == null ? List.of() : write.privateDirs(), protectedPaths, slots);
        if (laid instanceof ShareLayout.Refusal r) {
            return new VmLowering.Refused(r.writeDomain() ? CapabilityDomain.FILESYSTEM_WRITE
                    : CapabilityDomain.FILESYSTEM_READ, r.detail());
        }
        ShareLayout.Layout layout = (ShareLayout.Layout) laid;
        put(steps, scopes, CapabilityDomain.FILESYSTEM_READ, layout.readSteps());
        put(steps, scopes, CapabilityDomain.FILESYSTEM_WRITE, layout.writeSteps());
        List<ViewOp> view = new ArrayList<>(layout.view());
        List<GuestPlan.LandlockRule> rules = new ArrayList<>(layout.rules());
        Scope names = scopes.get(CapabilityDomain.NAME_RESOLUTION);
        if (names != null) {
            view.addAll(NameFiles.files(names));
            NameFiles.PATHS.forEach(p -> rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.READ, p)));
            put(steps, scopes, CapabilityDomain.NAME_RESOLUTION, List.of("generated " + String.join(", ", NameFiles.PATHS)
                    + " bound read-only into the view"));
            view.sort(Comparator.comparingInt(o -> HostPaths.depth(o.target())));
        }
        Scope egress = scopes.get(CapabilityDomain.NETWORK_EGRESS);
        OptionalInt proxyPort = OptionalInt.empty();
        if (egress instanceof Scope.Egress e && !e.grants().isEmpty()) {
            Route route = new VmRoutes(slots, 0, 0).route(ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS,
                    egress), spec.transport());
            if (route instanceof Route.Unsupported u) {
                return new VmLowering.Refused(CapabilityDomain.NETWORK_EGRESS, u.reason());
            }
            proxyPort = VmRoutes.mediatedPort(egress, spec.transport());
            put(steps, scopes, CapabilityDomain.NETWORK_EGRESS, List.of("no network device in the guest", "the guest "
                    + "agent listens on 127.0.0.1:" + proxyPort.getAsInt() + " and [::1]:" + proxyPort.getAsInt()
                    + " before the program exists and relays each connection to the mediation session"));
        } else {
            put(steps, scopes, CapabilityDomain.NETWORK_EGRESS, List.of("no network device in the guest"));
        }
        List<byte[]> programs = new ArrayList<>();
        try {
            programs.add(seccomp.baseline());
            if (scopes.get(CapabilityDomain.SYSCALL) instanceof Scope.Syscalls sc) {
                programs.add(seccomp.policy(sc.mode(), sc.names()));
                put(steps, scopes, CapabilityDomain.SYSCALL, List.of("seccomp " + sc.mode().token() + " list of "
                        + sc.names().size() + " calls, installed in the guest right before execve"));
            }
        } catch (IOException e) {
            return new VmLowering.Refused(CapabilityDomain.SYSCALL, e.getMessage());
        }
        OptionalLong pids = OptionalLong.empty();
        Scope proc = scopes.get(CapabilityDomain.PROCESS_CREATION);
        if (proc instanceof Scope.ProcessCeiling c) {
            pids = OptionalLong.of(c.maxProcesses());
            put(steps, scopes, CapabilityDomain.PROCESS_CREATION, List.of("pids.max " + c.maxProcesses()
                    + " on the tree's cgroup in the guest"));
        } else if (proc != null) {
            programs.add(seccomp.noFork());
            put(steps, scopes, CapabilityDomain.PROCESS_CREATION, List.of("seccomp in the guest: fork, vfork and clone"
                    + " without CLONE_THREAD fail with EPERM"));
        }
        Limits limits = Limits.of(scopes.get(CapabilityDomain.RESOURCE), pids);
        put(steps, scopes, CapabilityDomain.RESOURCE, limits.steps());
        put(steps, scopes, CapabilityDomain.IPC, List.of(VmRoutes.ALONE));
        put(steps, scopes, CapabilityDomain.CREDENTIAL, List.of("environment: exactly the " + spec.environment().size()
                + " delegated names; the guest's process table holds nothing of the host's; only stdio is kept"));
        GuestPlan plan = new GuestPlan(spec.program(), argv(spec), spec.environment(), spec.workingDirectory(), uid, gid,
                layout.slots().stream().map(s -> new GuestPlan.Share(s.slot(), s.readOnly())).toList(), view,
                limits.rlimits(), limits.memory(), limits.pids(), layout.landlock(), rules, programs);
        CanaryTargets targets = CanaryCalls.targets(Optional.ofNullable(scopes.get(CapabilityDomain.SYSCALL))
                .filter(Scope.Syscalls.class::isInstance).map(Scope.Syscalls.class::cast), limits.rlimits());
        return new VmLowering.Lowered(new VmLaunch(plan, layout.slots().stream().map(s -> new VmLaunch.ShareSlot(s.slot(),
                s.hostPath(), s.readOnly())).toList(), limits.wallClock(), steps, proxyPort, targets, spec.verify()));
    }

    private static List<String> argv(ExecutionSpec spec) {
        List<String> a = new ArrayList<>();
        a.add(spec.program());
        a.addAll(spec.args());
        return a;
    }

    /** A filesystem scope as paths: a whole-domain denial is a grant of nothing. */
    private static Scope.Paths paths(Scope s) {
        if (s == null) {
            return null;
        }
        return s instanceof Scope.Paths p ? p : new Scope.Paths(List.of());
    }

    private static void put(Map<CapabilityDomain, List<String>> steps, Map<CapabilityDomain, Scope> scopes,
                            CapabilityDomain d, List<String> s) {
        if (scopes.containsKey(d)) {
            steps.put(d, s.isEmpty() ? List.of("nothing granted") : s);
        }
    }
}
