package io.aasm.backend.container.internal.probe;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * One controlled pair per domain, each run in containers on this host: the same action performed by a
 * grandchild ({@code sh -c 'sh -c "..."; :'}), once with the grant (control) and once without (denial).
 * The verdict is DENIAL_OBSERVED only when the control had its effect and the denial had none; every
 * effect is checked by the supervisor, never by the program's exit code. Where no policy grant can widen
 * the container (egress: this version has none), the control is the same container with the one setting
 * changed (the host's network namespace), which the probe alone may use.
 */
public final class ProbeSuite {
    /** Part of the probe cache key: raise it whenever a probe changes what it runs or how it judges. */
    public static final int VERSION = 2;
    static final List<String> SYSTEM_READ = List.of("/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc");

    private final ProbeRunner runner;
    private final Path scratchRoot;

    public ProbeSuite(ProbeRunner runner, Path scratchRoot) {
        this.runner = runner;
        this.scratchRoot = scratchRoot;
    }

    public Map<CapabilityDomain, ProbeResult> runAll() {
        Map<CapabilityDomain, ProbeResult> out = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            out.put(d, run(d));
        }
        return out;
    }

    public ProbeResult run(CapabilityDomain d) {
        Path s = null;
        try {
            s = Files.createTempDirectory(scratchRoot, "aasm-container-probe-");
            Files.createDirectories(s.resolve("out"));
            return switch (d) {
                case FILESYSTEM_READ -> fsRead(s);
                case FILESYSTEM_WRITE -> fsWrite(s);
                case NETWORK_EGRESS -> network(s);
                case NAME_RESOLUTION -> names(s);
                case SYSCALL -> syscall(s);
                case PROCESS_CREATION -> process(s);
                case IPC -> ipc(s);
                case CREDENTIAL -> credential(s);
                case RESOURCE -> resource(s);
            };
        } catch (IOException | LaunchException | RuntimeException e) {
            return ProbeResult.inconclusive(d.token() + " probe could not run: " + String.valueOf(e.getMessage())
                    .replace('\n', ' '));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.inconclusive("interrupted");
        } finally {
            Scratch.delete(s);
        }
    }

    /** {@code sh -c '<sh -c "action; :">; :'}: the action runs in a grandchild of the launched shell. */
    static ExecutionSpec grandchild(String shell, String action, Path cwd, Map<String, String> env,
                                    List<ControlRequirement> reqs) {
        String inner = shell + " -c '" + action + "; :'; :";
        return new ExecutionSpec("/bin/sh", List.of("-c", inner), cwd.toString(), IdentityRef.anonymous(), reqs, env,
                CredentialPosture.none(), new Stdio.Inherit());
    }

    private static List<String> systemRead() {
        return SYSTEM_READ.stream().filter(p -> Files.exists(Path.of(p))).toList();
    }

    private static ControlRequirement req(CapabilityDomain d, Scope s) {
        return ControlRequirement.strict(d, s);
    }

    private ExitDisposition run(String action, Path s, List<ControlRequirement> reqs) throws LaunchException {
        return runner.run(grandchild("/bin/sh", action, s, Map.of("PATH", "/usr/bin:/bin"), reqs));
    }

    static ProbeResult verdict(boolean controlEffect, boolean denialEffect, String what, ExitDisposition control,
                               ExitDisposition denial) {
        if (controlEffect && !denialEffect) {
            return ProbeResult.observed(what + ": control had the effect, denial had none (in a container)");
        }
        return ProbeResult.inconclusive(what + ": control effect=" + controlEffect + " (" + control + "), denial effect="
                + denialEffect + " (" + denial + ")");
    }

    private ProbeResult fsRead(Path s) throws IOException, LaunchException {
        Path secret = Files.createDirectories(s.resolve("secret"));
        Files.writeString(secret.resolve("data"), "aasm-probe-secret");
        Path out = s.resolve("out/read");
        String action = "cat " + secret.resolve("data") + " > " + out;
        List<String> base = new ArrayList<>(systemRead());
        base.add(s.resolve("out").toString());
        ControlRequirement write = req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(s.resolve("out").toString())));
        ExitDisposition denial = run(action, s, List.of(req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(base)), write));
        boolean denied = Scratch.contains(out, "aasm-probe-secret");
        List<String> granted = new ArrayList<>(base);
        granted.add(secret.toString());
        ExitDisposition control = run(action, s, List.of(req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(granted)),
                write));
        return verdict(Scratch.contains(out, "aasm-probe-secret"), denied, "read of a file outside the grants", control,
                denial);
    }

    private ProbeResult fsWrite(Path s) throws IOException, LaunchException {
        Path w = Files.createDirectories(s.resolve("w"));
        Path target = Files.writeString(w.resolve("target"), "original");
        String action = "echo changed > " + target;
        ControlRequirement read = req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(systemRead()));
        ExitDisposition denial = run(action, s, List.of(read, req(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of(s.resolve("out").toString())))));
        boolean denied = !Files.readString(target).equals("original");
        ExitDisposition control = run(action, s, List.of(read, req(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of(s.resolve("out").toString(), w.toString())))));
        return verdict(Scratch.contains(target, "changed"), denied, "write to a file outside the grants", control, denial);
    }

    private ProbeResult network(Path s) throws IOException, LaunchException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            ExecutionSpec spec = grandchild("/bin/bash", "echo aasm-probe > /dev/tcp/127.0.0.1/" + port, s,
                    Map.of("PATH", "/usr/bin:/bin"), List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain())));
            ExitDisposition denial = runner.run(spec);
            boolean denied = received(server);
            ExitDisposition control = runner.run(spec, ContainerPlan::withHostNetwork);
            return verdict(received(server), denied, "TCP connect to a loopback listener the supervisor owns (control: "
                    + "the same container in the host's network namespace)", control, denial);
        }
    }

    /** A connection the grandchild made is already in the accept queue when the launch has ended. */
    private static boolean received(ServerSocketChannel server) throws IOException {
        try (SocketChannel c = server.accept()) {
            return c != null;
        }
    }

    private ProbeResult names(Path s) throws IOException, LaunchException {
        Path out = s.resolve("out/names");
        String action = "getent hosts aasm-probe.invalid > " + out;
        ControlRequirement noEgress = req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain());
        ExitDisposition denial = run(action, s, List.of(req(CapabilityDomain.NAME_RESOLUTION, new Scope.WholeDomain()),
                noEgress));
        boolean denied = Scratch.contains(out, "127.0.0.9");
        TreeMap<String, String> pinned = new TreeMap<>(Map.of("aasm-probe.invalid", "127.0.0.9"));
        ExitDisposition control = run(action, s, List.of(req(CapabilityDomain.NAME_RESOLUTION,
                new Scope.PinnedHosts(pinned)), noEgress));
        return verdict(Scratch.contains(out, "127.0.0.9"), denied, "lookup of a name outside the pinned table", control,
                denial);
    }

    private ProbeResult syscall(Path s) throws IOException, LaunchException {
        Path made = s.resolve("out/made");
        String action = "mkdir " + made;
        ExitDisposition denial = run(action, s, List.of(req(CapabilityDomain.SYSCALL,
                new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir", "mkdirat")))));
        boolean denied = Files.exists(made);
        ExitDisposition control = run(action, s, List.of(req(CapabilityDomain.SYSCALL,
                new Scope.Syscalls(SyscallMode.DENY, List.of("acct")))));
        return verdict(Files.isDirectory(made), denied, "mkdir with mkdir/mkdirat on the deny list", control, denial);
    }

    private ProbeResult process(Path s) throws IOException, LaunchException {
        Path out = s.resolve("out/proc");
        String action = "echo ran > " + out;
        ExitDisposition denial = run(action, s, List.of(req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain())));
        boolean denied = Scratch.contains(out, "ran");
        ExitDisposition control = run(action, s, List.of());
        return verdict(Scratch.contains(out, "ran"), denied, "a grandchild process (needs fork)", control, denial);
    }

    private ProbeResult ipc(Path s) throws IOException, LaunchException, InterruptedException {
        Process outside = new ProcessBuilder("sleep", "60").start();
        try {
            String action = "kill -TERM " + outside.pid();
            ExitDisposition denial = run(action, s, List.of(req(CapabilityDomain.IPC,
                    new Scope.IpcGrants(Set.of(IpcChannel.SYSV)))));
            boolean denied = outside.waitFor(300, TimeUnit.MILLISECONDS);
            ExitDisposition control = run(action, s, List.of(req(CapabilityDomain.IPC,
                    new Scope.IpcGrants(Set.of(IpcChannel.SYSV, IpcChannel.SIGNAL)))));
            boolean effect = outside.waitFor(5, TimeUnit.SECONDS);
            return verdict(effect, denied, "a signal to a process outside the container", control, denial);
        } finally {
            outside.destroyForcibly();
        }
    }

    /** Another process's environ and an undelegated name; the undelegated name is the pair's control. */
    private ProbeResult credential(Path s) throws IOException, LaunchException {
        String marker = "aasm-probe-outside-" + java.util.UUID.randomUUID();
        ProcessBuilder pb = new ProcessBuilder("sleep", "60");
        pb.environment().put("AASM_PROBE_OUTSIDE", marker);
        Process outside = pb.start();
        try {
            Path environ = s.resolve("out/environ");
            Path env = s.resolve("out/env");
            String action = "cat /proc/" + outside.pid() + "/environ > " + environ + "; env > " + env;
            Map<String, String> childEnv = Map.of("PATH", "/usr/bin:/bin", "AASM_PROBE_KEEP", "1", "AASM_PROBE_DROP", "1");
            ExitDisposition denial = runner.run(grandchild("/bin/sh", action, s, childEnv, List.of(req(
                    CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("PATH", "AASM_PROBE_KEEP"))))));
            boolean denied = Scratch.contains(environ, marker) || Scratch.contains(env, "AASM_PROBE_DROP=")
                    || !Scratch.contains(env, "AASM_PROBE_KEEP=");
            ExitDisposition control = runner.run(grandchild("/bin/sh", action, s, childEnv, List.of()));
            return verdict(Scratch.contains(env, "AASM_PROBE_DROP="), denied, "another process's environ and an "
                    + "undelegated name", control, denial);
        } finally {
            outside.destroyForcibly();
        }
    }

    private ProbeResult resource(Path s) throws IOException, LaunchException {
        Path big = s.resolve("out/big");
        String action = "yes aasm | head -c 100000 > " + big;
        ExitDisposition denial = run(action, s, List.of(req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.of(4096), OptionalLong.empty()))));
        boolean denied = Scratch.size(big) > 4096;
        ExitDisposition control = run(action, s, List.of());
        return verdict(Scratch.size(big) == 100000, denied, "a 100000-byte file under a 4096-byte file-size ceiling",
                control, denial);
    }
}
