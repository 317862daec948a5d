package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.backend.landlockseccomp.internal.cgroup.CgroupPlacement;
import io.aasm.backend.landlockseccomp.internal.launcher.PlanMessage;
import io.aasm.backend.landlockseccomp.internal.launcher.PlanRecord;
import io.aasm.backend.landlockseccomp.internal.lower.Canaries;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan;
import io.aasm.backend.landlockseccomp.internal.lower.View;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.RelayEndpoint;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/** Maps a decided {@link LandlockSeccompPlan} (plus the resources prepared for it) onto the launcher's wire message. */
public final class MessageMapper {
    private static final int SIGHUP = 1;
    private static final int SIGINT = 2;
    private static final int SIGQUIT = 3;
    private static final int SIGTERM = 15;
    /** Below every pid_max Linux allows (32768 is the smallest default), above the pids init's helpers take. */
    private static final int PID_FROM = 1000;
    private static final int PID_TO = 32768;

    private MessageMapper() {
    }

    public static PlanMessage map(LandlockSeccompPlan plan, CgroupPlacement cgroups, PreparedFiles files, int uid, int gid) {
        return map(plan, cgroups, files, Optional.empty(), uid, gid, Optional.empty());
    }

    /**
     * {@code mediation}: the session a mediated plan relays to; its endpoint goes into RELAY_PROXY and its variables
     * (the proxy variables, named after the in-namespace port) into the program's environment, after the delegated
     * names, which they override.
     */
    public static PlanMessage map(LandlockSeccompPlan plan, CgroupPlacement cgroups, PreparedFiles files,
                                  Optional<CanaryWitness> canaries, int uid, int gid,
                                  Optional<MediationSession> mediation) {
        PlanMessage.Builder m = PlanMessage.builder().program(plan.program()).argv(plan.argv()).cwd(plan.workingDirectory());
        Map<String, String> env = new TreeMap<>(plan.environment());
        mediation.ifPresent(s -> env.putAll(s.environment()));
        env.forEach(m::env);
        if (plan.authority().newTerminal()) {
            m.terminal();
        }
        if (!plan.namespaces().isEmpty()) {
            Set<PlanRecord.Namespace> ns = EnumSet.noneOf(PlanRecord.Namespace.class);
            plan.namespaces().forEach(n -> ns.add(PlanRecord.Namespace.valueOf(n.name())));
            m.namespaces(ns);
            if (ns.contains(PlanRecord.Namespace.USER)) {
                m.userMap(uid, uid, gid, gid);
            }
            if (ns.contains(PlanRecord.Namespace.NET)) {
                m.loopbackUp();
                plan.relayTcpPorts().forEach(m::relayTcpPort);
                if (plan.loopbackInjection()) {
                    m.loopbackInject();
                }
                plan.relayUdpPorts().forEach(m::relayUdpPort);
                if (plan.proxyPort().isPresent()) {
                    RelayEndpoint e = mediation.flatMap(MediationSession::relay).orElseThrow(() ->
                            new IllegalStateException("a mediated plan without a relay endpoint"));
                    m.relayProxy(plan.proxyPort().getAsInt(), e.preamble(), e.socket().toString());
                }
            }
        }
        if (plan.mountProc()) {
            m.mountProc();
        }
        plan.view().ifPresent(v -> view(v, files, m));
        cgroups.procsFiles().forEach(m::cgroupJoin);
        for (Map.Entry<LandlockSeccompPlan.Rlimit, Long> e : plan.rlimits().entrySet()) {
            m.rlimit(resource(e.getKey()), e.getValue(), e.getValue());
        }
        plan.landlock().ifPresent(l -> {
            m.landlock(l.handledFs(), l.handledNet(), l.scoped());
            l.paths().forEach(p -> m.landlockPath(p.access(), p.path()));
            l.ports().forEach(p -> m.landlockPort(p.access(), p.port()));
        });
        m.noNewPrivs();
        if (plan.authority().dropCapabilities()) {
            m.dropCaps();
        }
        if (plan.authority().randomPid()) {
            m.programPid(ThreadLocalRandom.current().nextInt(PID_FROM, PID_TO));
        }
        canaries.ifPresent(w -> m.canary(w.mask(), w.port(), w.syscall().map(s -> s.number()).orElse(0),
                w.readFile().map(Object::toString).orElse(""), w.writeFile().map(Object::toString).orElse("")));
        // The RESOURCE canary holds the program to the plan's first ceiling (CanaryChooser: one is stated).
        canaries.filter(w -> w.kinds().contains(Canaries.Kind.RESOURCE)).flatMap(w -> plan.rlimits().entrySet()
                .stream().findFirst()).ifPresent(e -> m.canaryRlimit(resource(e.getKey()), e.getValue()));
        // The launcher seals every inherited descriptor not listed here, stdio included.
        m.keepFds(0, 1, 2);
        plan.seccomp().forEach(s -> m.seccomp(0, s.bpf()));
        if (plan.seccomp().size() > 1) {
            m.decisions(1); // the launch's own program (the baseline, first, answers for itself)
        }
        m.signals(plan.namespaces().contains(LandlockSeccompPlan.Namespace.PID) ? PlanRecord.SignalTarget.ALL
                : PlanRecord.SignalTarget.GROUP, SIGHUP, SIGINT, SIGQUIT, SIGTERM);
        return m.build();
    }

    private static void view(View v, PreparedFiles files, PlanMessage.Builder m) {
        m.viewRoot(v.base().code());
        for (View.Op op : v.ops()) {
            String a = op.a().startsWith(View.GENERATED)
                    ? files.path(op.a().substring(View.GENERATED.length())).toString() : op.a();
            m.viewOp(op.kind().code(), op.flags(), a, op.b());
        }
    }

    private static int resource(LandlockSeccompPlan.Rlimit r) {
        return switch (r) {
            case CPU -> PlanRecord.Rlimit.CPU;
            case FSIZE -> PlanRecord.Rlimit.FSIZE;
            case NOFILE -> PlanRecord.Rlimit.NOFILE;
            case AS -> PlanRecord.Rlimit.AS;
            case NPROC -> PlanRecord.Rlimit.NPROC;
        };
    }
}
