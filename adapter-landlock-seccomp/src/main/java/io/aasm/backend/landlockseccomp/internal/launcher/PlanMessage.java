package io.aasm.backend.landlockseccomp.internal.launcher;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The complete plan the launcher installs, as a list of records. Order between record types does not
 * matter (the encoder sorts by type, stably); order within one type does (ARG, ENV, rules).
 */
public record PlanMessage(List<PlanRecord> records) {
    public static final int VERSION = 3;

    public PlanMessage {
        records = List.copyOf(records);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Convenience builder; every method appends records. */
    public static final class Builder {
        private final List<PlanRecord> records = new ArrayList<>();

        public Builder add(PlanRecord r) { records.add(r); return this; }
        public Builder program(String path) { return add(new PlanRecord.Program(path)); }
        public Builder argv(String... args) { for (String a : args) add(new PlanRecord.Arg(a)); return this; }
        public Builder argv(Collection<String> args) { args.forEach(a -> add(new PlanRecord.Arg(a))); return this; }
        public Builder env(String name, String value) { return add(PlanRecord.Env.of(name, value)); }
        public Builder cwd(String path) { return add(new PlanRecord.Cwd(path)); }
        public Builder namespaces(Set<PlanRecord.Namespace> ns) { return add(new PlanRecord.Namespaces(ns)); }
        public Builder userMap(int inUid, int outUid, int inGid, int outGid) {
            return add(new PlanRecord.UserMap(inUid, outUid, inGid, outGid));
        }
        public Builder mountProc() { return add(new PlanRecord.MountProc()); }
        public Builder terminal() { return add(new PlanRecord.Terminal()); }
        public Builder viewRoot(int base) { return add(PlanRecord.ViewOp.root(base)); }
        public Builder viewOp(int op, int flags, String a, String b) { return add(new PlanRecord.ViewOp(op, flags, a, b)); }
        public Builder bind(String source, String target, boolean readOnly) {
            return viewOp(PlanRecord.ViewOp.BIND, readOnly ? PlanRecord.ViewOp.READ_ONLY : 0, source, target);
        }
        public Builder dropCaps() { return add(new PlanRecord.DropCaps()); }
        public Builder programPid(int pid) { return add(new PlanRecord.ProgramPid(pid)); }
        public Builder decisions(int filter) { return add(new PlanRecord.Decisions(filter)); }
        public Builder canary(int kinds, int port, int syscall, String readPath, String writePath) {
            return add(new PlanRecord.Canary(kinds, port, syscall, readPath, writePath));
        }
        public Builder loopbackUp() { return add(new PlanRecord.LoopbackUp()); }
        public Builder relayTcpPort(int port) { return add(new PlanRecord.RelayTcpPort(port)); }
        public Builder loopbackInject() { return add(new PlanRecord.LoopbackInject()); }
        public Builder relayUdpPort(int port) { return add(new PlanRecord.RelayUdpPort(port)); }
        public Builder relayProxy(int port, byte[] preamble, String socket) {
            return add(new PlanRecord.RelayProxy(port, preamble, socket));
        }
        public Builder cgroupJoin(String procsFile) { return add(new PlanRecord.CgroupJoin(procsFile)); }
        public Builder rlimit(int resource, long soft, long hard) { return add(new PlanRecord.Rlimit(resource, soft, hard)); }
        public Builder canaryRlimit(int resource, long hard) { return add(new PlanRecord.CanaryRlimit(resource, hard)); }
        public Builder landlock(long fs, long net, long scoped) { return add(new PlanRecord.LandlockRuleset(fs, net, scoped)); }
        public Builder landlockPath(long allowed, String path) { return add(new PlanRecord.LandlockPath(allowed, path)); }
        public Builder landlockPort(long allowed, long port) { return add(new PlanRecord.LandlockPort(allowed, port)); }
        public Builder noNewPrivs() { return add(new PlanRecord.NoNewPrivs()); }
        public Builder seccomp(int flags, byte[] filter) { return add(new PlanRecord.Seccomp(flags, filter)); }
        public Builder keepFds(int... fds) { for (int fd : fds) add(new PlanRecord.KeepFd(fd)); return this; }
        public Builder signals(PlanRecord.SignalTarget target, int... signals) {
            return add(PlanRecord.Signals.of(target, signals));
        }
        public PlanMessage build() { return new PlanMessage(records); }
    }
}
