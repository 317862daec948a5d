package io.aasm.backend.nativ.internal.runtime;

import io.aasm.backend.nativ.internal.cgroup.CgroupPlacement;
import io.aasm.backend.nativ.internal.launcher.PlanMessage;
import io.aasm.backend.nativ.internal.launcher.PlanRecord;
import io.aasm.backend.nativ.internal.lower.NativePlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** Maps a decided {@link NativePlan} (plus the resources prepared for it) onto the launcher's wire message. */
public final class MessageMapper {
    private static final int SIGHUP = 1;
    private static final int SIGINT = 2;
    private static final int SIGQUIT = 3;
    private static final int SIGTERM = 15;

    private MessageMapper() {
    }

    public static PlanMessage map(NativePlan plan, CgroupPlacement cgroups, PreparedFiles files, int uid, int gid) {
        PlanMessage.Builder m = PlanMessage.builder().program(plan.program()).argv(plan.argv()).cwd(plan.workingDirectory());
        plan.environment().forEach(m::env);
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
            }
        }
        if (plan.mountProc()) {
            m.mountProc();
        }
        files.hosts().ifPresent(h -> m.bind(h.toString(), "/etc/hosts", true));
        files.resolvConf().ifPresent(r -> m.bind(r.toString(), "/etc/resolv.conf", true));
        cgroups.procsFiles().forEach(m::cgroupJoin);
        for (Map.Entry<NativePlan.Rlimit, Long> e : plan.rlimits().entrySet()) {
            m.rlimit(resource(e.getKey()), e.getValue(), e.getValue());
        }
        plan.landlock().ifPresent(l -> {
            m.landlock(l.handledFs(), l.handledNet(), l.scoped());
            l.paths().forEach(p -> m.landlockPath(p.access(), p.path()));
            l.ports().forEach(p -> m.landlockPort(p.access(), p.port()));
        });
        m.noNewPrivs();
        // The launcher seals every inherited descriptor not listed here, stdio included.
        m.keepFds(0, 1, 2);
        plan.seccomp().forEach(s -> m.seccomp(0, s.bpf()));
        m.signals(plan.namespaces().contains(NativePlan.Namespace.PID) ? PlanRecord.SignalTarget.ALL
                : PlanRecord.SignalTarget.GROUP, SIGHUP, SIGINT, SIGQUIT, SIGTERM);
        return m.build();
    }

    private static int resource(NativePlan.Rlimit r) {
        return switch (r) {
            case CPU -> PlanRecord.Rlimit.CPU;
            case FSIZE -> PlanRecord.Rlimit.FSIZE;
            case NOFILE -> PlanRecord.Rlimit.NOFILE;
            case AS -> PlanRecord.Rlimit.AS;
            case NPROC -> PlanRecord.Rlimit.NPROC;
        };
    }

    /** Files generated for the launch (hosts, resolv.conf), in a private directory removed after the run. */
    public record PreparedFiles(Path dir, java.util.Optional<Path> hosts, java.util.Optional<Path> resolvConf)
            implements AutoCloseable {
        public static PreparedFiles none() {
            return new PreparedFiles(null, java.util.Optional.empty(), java.util.Optional.empty());
        }

        public static PreparedFiles create(NativePlan plan) throws java.io.IOException {
            if (plan.hostsFile().isEmpty()) {
                return none();
            }
            Path dir = Files.createTempDirectory("aasm-native-");
            Path hosts = Files.writeString(dir.resolve("hosts"), plan.hostsFile().get());
            java.util.Optional<Path> resolv = java.util.Optional.empty();
            if (Files.exists(Path.of("/etc/resolv.conf"))) {
                resolv = java.util.Optional.of(Files.writeString(dir.resolve("resolv.conf"),
                        "# aasm: no nameserver; names resolve only from the pinned hosts file\noptions attempts:1 timeout:1\n"));
            }
            return new PreparedFiles(dir, java.util.Optional.of(hosts), resolv);
        }

        @Override
        public void close() {
            if (dir == null) {
                return;
            }
            try {
                for (Path p : java.util.List.of(dir.resolve("hosts"), dir.resolve("resolv.conf"), dir)) {
                    Files.deleteIfExists(p);
                }
            } catch (java.io.IOException e) {
                // a temp directory left behind is harmless
            }
        }
    }
}
